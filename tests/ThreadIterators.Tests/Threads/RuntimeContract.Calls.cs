using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

// Sub-bodies (Event.Call, Event.Call<T>, Event.Return): the steps are in the header of src/ThreadIterators/Threads/CallStack.cs.
public abstract partial class RuntimeContract
{
    [Fact]
    public void Call_ASubBodyThatWaits_RunsOnTheCallersThread_AndTheCallerGoesOnAfterIt()
    {
        const int Count = 1_000;
        var numbers = new Mailbox<int>("numbers");
        var seen = new List<int>();
        var threads = new ConcurrentBag<GreenThread?>();
        var caller = Scheduler.Spawn(Caller(), "caller");
        for (var i = 0; i < Count; i++)
        {
            numbers.Send(i);
        }

        Join(caller);
        Assert.Equal(Enumerable.Range(0, Count), seen);
        Assert.All(threads, t => Assert.Same(caller, t));

        IEnumerable<Event> Caller()
        {
            for (var i = 0; i < Count / 10; i++)
            {
                threads.Add(GreenThread.Current);
                yield return Event.Call(Take(10));
                Assert.Equal((i + 1) * 10, seen.Count);
            }
        }

        IEnumerable<Event> Take(int count)
        {
            for (var i = 0; i < count; i++)
            {
                yield return numbers.Recv();
                seen.Add(numbers.Recv().Value);
                threads.Add(GreenThread.Current);
            }
        }
    }

    [Fact]
    public void CallOfT_ReturnsTheSubBodysValue_AcrossWaits_AndNestedCallsAddUp()
    {
        const int Pairs = 500;
        var numbers = new Mailbox<int>("numbers");
        var sums = new List<int>();
        var caller = Scheduler.Spawn(Caller(), "caller");
        for (var i = 0; i < Pairs * 2; i++)
        {
            numbers.Send(i);
        }

        Join(caller);
        Assert.Equal(Enumerable.Range(0, Pairs).Select(i => (4 * i) + 1), sums);

        IEnumerable<Event> Caller()
        {
            for (var i = 0; i < Pairs; i++)
            {
                var pair = Event.Call<int>(SumOfTwo());
                yield return pair;
                sums.Add(pair.Result);
            }
        }

        IEnumerable<Event> SumOfTwo()
        {
            var first = Event.Call<int>(One());
            yield return first;
            var a = first.Result;
            var second = Event.Call<int>(One());
            yield return second;
            yield return Event.Return(a + second.Result);
        }

        IEnumerable<Event> One()
        {
            yield return numbers.Recv();
            yield return Event.Return(numbers.Recv().Value);
        }
    }

    [Fact]
    public void Call_ADeepChainOfNestedCalls_NeedsNoStackDepth_AndUnwindsInOrder()
    {
        // Ten thousand levels, each waiting once: as recursion on the worker's stack this would be ten thousand nested
        // MoveNext calls deep at every step of the innermost body.
        const int Depth = 10_000;
        var ticks = new Mailbox<int>("ticks");
        var caller = Scheduler.Spawn(Caller(), "caller");
        for (var i = 0; i < Depth; i++)
        {
            ticks.Send(i);
        }

        Join(caller);

        IEnumerable<Event> Caller()
        {
            var total = Event.Call<long>(Level(Depth));
            yield return total;
            Assert.Equal((long)Depth * (Depth - 1) / 2, total.Result);
        }

        IEnumerable<Event> Level(int depth)
        {
            yield return ticks.Recv();
            var tick = ticks.Recv().Value;
            if (depth == 1)
            {
                yield return Event.Return((long)tick);
                yield break;
            }

            var rest = Event.Call<long>(Level(depth - 1));
            yield return rest;
            yield return Event.Return(tick + rest.Result);
        }
    }

    [Fact]
    public void Call_AnExceptionInTheSubBody_IsThrownAtEachCallersYield_TheirFinallyBlocksRunInnermostFirst()
    {
        var order = new ConcurrentQueue<string>();
        var resumed = 0;
        var thread = Scheduler.Spawn(Outer(), "outer");
        var fault = Assert.Throws<FormatException>(() => Join(thread));
        Assert.Equal("from the innermost body", fault.Message);
        Assert.Contains(nameof(Innermost), fault.StackTrace, StringComparison.Ordinal);
        Assert.Equal(["innermost", "middle", "outer"], order);
        Assert.Equal(0, Volatile.Read(ref resumed));
        Assert.Equal(ThreadOutcome.Faulted, thread.Outcome);

        IEnumerable<Event> Outer()
        {
            try
            {
                yield return Event.Call(Middle());
                Interlocked.Increment(ref resumed);
            }
            finally
            {
                order.Enqueue("outer");
            }
        }

        IEnumerable<Event> Middle()
        {
            try
            {
                yield return Event.Call<int>(Innermost());
                Interlocked.Increment(ref resumed);
            }
            finally
            {
                order.Enqueue("middle");
            }
        }

        IEnumerable<Event> Innermost()
        {
            try
            {
                yield return Event.Yield;
                throw new FormatException("from the innermost body");
            }
            finally
            {
                order.Enqueue("innermost");
            }
        }
    }

    [Fact]
    public void Call_Catch_ResumesTheCaller_WhichReadsTheException_OrCatchesItAroundResult()
    {
        var handled = new List<string>();
        Run(Caller(), "caller");
        Assert.Equal(["caught: no", "result threw: no", "ok: 7", "after"], handled);

        IEnumerable<Event> Caller()
        {
            var failing = Event.Call(Fails("no")).Catch();
            yield return failing;
            handled.Add($"caught: {failing.Exception!.Message}");

            var value = Event.Call<int>(FailsForValue("no")).Catch();
            yield return value;
            try
            {
                handled.Add($"got {value.Result}");
            }
            catch (InvalidOperationException exception)
            {
                handled.Add($"result threw: {exception.Message}");
            }

            var fine = Event.Call<int>(Seven()).Catch();
            yield return fine;
            Assert.Null(fine.Exception);
            handled.Add($"ok: {fine.Result}");
            handled.Add("after");
        }

        IEnumerable<Event> Fails(string message)
        {
            yield return Event.Yield;
            throw new InvalidOperationException(message);
        }

        IEnumerable<Event> FailsForValue(string message)
        {
            // Fails through a nested call that does not catch: the exception goes up two levels to the catching one.
            yield return Event.Call(Fails(message));
            yield return Event.Return(1);
        }

        IEnumerable<Event> Seven()
        {
            yield return Event.Yield;
            yield return Event.Return(7);
        }
    }

    [Fact]
    public void Call_AStopWhileASubBodyWaits_EndsEveryBody_InnermostFirst_AndTheWaitGraphShowsTheStack()
    {
        var order = new ConcurrentQueue<string>();
        var parked = new Mailbox<int>("never sent to");
        var thread = Scheduler.Spawn(Outer(), "outer");
        WaitUntil(() => Scheduler.GetWaitGraph().Find(thread) is { IsRunning: false, Calls.Count: 3 }, "the innermost body parks");

        var entry = Scheduler.GetWaitGraph().Find(thread)!;
        Assert.Equal([nameof(Outer), nameof(Middle), nameof(Innermost)], entry.Calls);
        Assert.Contains("(in Innermost called by Middle called by Outer)", entry.ToString(), StringComparison.Ordinal);
        Assert.Equal(parked.Recv(), entry.Event);

        Assert.True(thread.Stop("test"));
        WaitUntil(() => thread.IsCompleted, "the stopped thread ends");
        Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        Assert.Equal(["innermost", "middle", "outer"], order);

        IEnumerable<Event> Outer()
        {
            try
            {
                yield return Event.Call(Middle());
            }
            finally
            {
                order.Enqueue("outer");
            }
        }

        IEnumerable<Event> Middle()
        {
            try
            {
                yield return Event.Call(Innermost());
            }
            finally
            {
                order.Enqueue("middle");
            }
        }

        IEnumerable<Event> Innermost()
        {
            try
            {
                yield return parked.Recv();
            }
            finally
            {
                order.Enqueue("innermost");
            }
        }
    }

    [Fact]
    public void Call_ManyCallsInOneTurn_CrossTheStepBudget_AndEveryValueArrives()
    {
        // Calls that complete at once take two steps each, so the step budget runs out at a call's yield and at a
        // return's: both are deferred parks, taken up at the next turn.
        const int Calls = 10_000;
        long sum = 0;
        Run(Caller(), "caller");
        Assert.Equal((long)Calls * (Calls - 1) / 2, sum);

        IEnumerable<Event> Caller()
        {
            for (var i = 0; i < Calls; i++)
            {
                var call = Event.Call<int>(Identity(i));
                yield return call;
                sum += call.Result;
                if (i % 3 == 0)
                {
                    yield return Event.Call(Nothing());
                }
            }
        }

        IEnumerable<Event> Identity(int value)
        {
            yield return Event.Return(value);
        }

        IEnumerable<Event> Nothing()
        {
            yield break;
        }
    }

    [Fact]
    public void Call_Misuse_FailsWithAnExceptionThatNamesTheThreadAndTheBody()
    {
        Assert.Contains("green thread", Assert.Throws<InvalidOperationException>(() => Event.Call(Nothing())).Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentNullException>(() => Event.Call(null!));
        Assert.Contains("sub-body", Assert.Throws<InvalidOperationException>(() => Event.Return(1)).Message, StringComparison.Ordinal);

        var noValue = Assert.Throws<InvalidOperationException>(() => Run(CallsForValue(Nothing()), "no value"));
        Assert.Contains("Nothing ended without yielding Event.Return(value)", noValue.Message, StringComparison.Ordinal);
        Assert.Contains("'no value'", noValue.Message, StringComparison.Ordinal);

        var wrongType = Assert.Throws<InvalidOperationException>(() => Run(CallsForValue(ReturnsText()), "wrong type"));
        Assert.Contains("ReturnsText returned a String", wrongType.Message, StringComparison.Ordinal);

        var topLevel = Assert.Throws<InvalidOperationException>(() => Run(ReturnsText(), "top level"));
        Assert.Contains("'top level' made Event.Return(value) outside a sub-body", topLevel.Message, StringComparison.Ordinal);

        var twice = Assert.Throws<InvalidOperationException>(() => Run(YieldsTwice(), "twice"));
        Assert.Contains("'twice' yielded the call", twice.Message, StringComparison.Ordinal);

        var early = Assert.Throws<InvalidOperationException>(() => Run(ReadsEarly(), "early"));
        Assert.Contains("has not returned yet", early.Message, StringComparison.Ordinal);

        var stale = Assert.Throws<InvalidOperationException>(() => Run(ReadsStale(), "stale"));
        Assert.Contains("after a later call reused its place", stale.Message, StringComparison.Ordinal);

        IEnumerable<Event> Nothing()
        {
            yield break;
        }

        IEnumerable<Event> ReturnsText()
        {
            yield return Event.Return("text");
        }

        IEnumerable<Event> Five()
        {
            yield return Event.Return(5);
        }

        IEnumerable<Event> CallsForValue(IEnumerable<Event> body)
        {
            var call = Event.Call<int>(body);
            yield return call;
            _ = call.Result;
        }

        IEnumerable<Event> YieldsTwice()
        {
            var call = Event.Call(Nothing());
            yield return call;
            yield return call;
        }

        IEnumerable<Event> ReadsEarly()
        {
            var call = Event.Call<int>(Five());
            _ = call.Result;
            yield return call;
        }

        IEnumerable<Event> ReadsStale()
        {
            var first = Event.Call<int>(Five());
            yield return first;
            var second = Event.Call<int>(Five());
            yield return second;
            _ = first.Result + second.Result;
        }
    }

    [Fact]
    public void Call_ThePowerSeriesExampleOfWaitingMd_AddsTwoSeries()
    {
        // docs/waiting.md's GetN and Add, as written there: U = 1, 2, 3, ... and V = 10, 20, 30, ... add to 11, 22, 33, ...
        const int Terms = 200;
        var u = new Series(new Mailbox<int>("u demand"), new Mailbox<long>("u values"));
        var v = new Series(new Mailbox<int>("v demand"), new Mailbox<long>("v values"));
        var sum = new Series(new Mailbox<int>("sum demand"), new Mailbox<long>("sum values"));
        var producers = new[] { Scheduler.Spawn(Naturals(u, 1), "U"), Scheduler.Spawn(Naturals(v, 10), "V") };
        var adder = Scheduler.Spawn(Add(u, v, sum), "Add");
        var read = new List<long>();
        Run(Reader(), "reader");
        Assert.Equal(Enumerable.Range(1, Terms).Select(i => 11L * i), read);
        foreach (var thread in producers.Append(adder))
        {
            thread.Stop("done");
        }

        IEnumerable<Event> Reader()
        {
            for (var i = 0; i < Terms; i++)
            {
                sum.Demand.Send(0);
                yield return sum.Values.Recv();
                read.Add(sum.Values.Recv().Value);
            }
        }

        static IEnumerable<Event> Naturals(Series series, long scale)
        {
            for (long n = 1; ; n++)
            {
                yield return series.Demand.Recv();
                series.Values.Send(n * scale);
            }
        }

        // Go's getn: a demand to each series, then one value from each.
        static IEnumerable<Event> GetN(Series[] inputs)
        {
            foreach (var input in inputs)
            {
                input.Demand.Send(0);
            }

            var values = new long[inputs.Length];
            for (var i = 0; i < inputs.Length; i++)
            {
                yield return inputs[i].Values.Recv();
                values[i] = inputs[i].Values.Recv().Value;
            }

            yield return Event.Return(values);
        }

        // Go's Add: each coefficient of U + V, on demand.
        static IEnumerable<Event> Add(Series u, Series v, Series sum)
        {
            while (true)
            {
                yield return sum.Demand.Recv();
                var pair = Event.Call<long[]>(GetN([u, v]));
                yield return pair;
                sum.Values.Send(pair.Result[0] + pair.Result[1]);
            }
        }
    }

    private sealed record Series(Mailbox<int> Demand, Mailbox<long> Values);
}
