using System.Collections.Generic;
using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// The cost of a sub-body call (<see cref="Event.Call{T}(IEnumerable{Event})"/>) that returns a value at once, beside
/// a plain <see cref="Event.Yield"/> (the baseline) and the delegation by hand it replaces
/// (<c>foreach (var e in Helper(holder)) yield return e;</c>). One green thread makes 1,000,000 of each; figures are
/// per operation. A sub-body's own enumerator is allocated by every form but the yield.
/// </summary>
public class CallBenchmarks : WorkerSuite
{
    private const int Operations = 1_000_000;

    /// <summary>The baseline: one plain yield, which gives up the turn and takes the next.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Operations)]
    public long Yield() => Verify.Result("Yields", Run(Yields()), Operations);

    /// <summary>One call of a sub-body that returns its argument at once, and the read of its result.</summary>
    [Benchmark(OperationsPerInvoke = Operations)]
    public long CallAndReturn() => Verify.Result("Calls", Run(Calls()), Sum);

    /// <summary>The same helper written for delegation by hand: a foreach that yields its events, and a holder for its result.</summary>
    [Benchmark(OperationsPerInvoke = Operations)]
    public long Delegation() => Verify.Result("Delegations", Run(Delegations()), Sum);

    private static long Sum => (long)Operations * (Operations - 1) / 2;

    private long _result;

    private long Run(IEnumerable<Event> body)
    {
        Scheduler.Spawn(body).Wait();
        return _result;
    }

    private IEnumerable<Event> Yields()
    {
        for (var i = 0; i < Operations; i++)
        {
            yield return Event.Yield;
        }

        _result = Operations;
    }

    private IEnumerable<Event> Calls()
    {
        long sum = 0;
        for (var i = 0; i < Operations; i++)
        {
            var call = Event.Call<int>(Identity(i));
            yield return call;
            sum += call.Result;
        }

        _result = sum;
    }

    private IEnumerable<Event> Delegations()
    {
        long sum = 0;
        var holder = new Holder();
        for (var i = 0; i < Operations; i++)
        {
            foreach (var e in Identity(i, holder))
            {
                yield return e;
            }

            sum += holder.Value;
        }

        _result = sum;
    }

    private static IEnumerable<Event> Identity(int value)
    {
        yield return Event.Return(value);
    }

    private static IEnumerable<Event> Identity(int value, Holder holder)
    {
        holder.Value = value;
        yield break;
    }

    private sealed class Holder
    {
        public int Value { get; set; }
    }
}
