using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

// A Put(message) into a full mailbox sends only when yielded: made and dropped, it faults its thread at the next yield
// or at the body's end, naming the thread and the put, instead of losing the message without a word
// (GreenThread.Stopping.cs, the unyielded put's mark).
#pragma warning disable TI0002 // Events made and not yielded are what these tests are about.
public abstract partial class RuntimeContract
{
    [Fact]
    public void UnyieldedPut_AThreadThatYieldsSomethingElseNext_FaultsThere_NamingThePut()
    {
        var box = new Mailbox<int>(1, "full box");
        box.Send(1);
        var resumed = 0;
        var thread = Scheduler.Spawn(Body(), "dropper");
        var fault = Assert.ThrowsAny<InvalidOperationException>(() => Join(thread));
        Assert.Contains("'dropper' made Put() into Mailbox<Int32> 'full box'", fault.Message, StringComparison.Ordinal);
        Assert.Contains("never sent", fault.Message, StringComparison.Ordinal);
        Assert.Equal(0, Volatile.Read(ref resumed));
        Assert.Equal(1, box.Count);

        IEnumerable<Event> Body()
        {
            box.Put(2);
            yield return Event.Yield;
            Interlocked.Increment(ref resumed);
        }
    }

    [Fact]
    public void UnyieldedPut_AThreadThatParksOnSomethingElseNext_FaultsInsteadOfWaiting()
    {
        var box = new Mailbox<int>(1, "full box");
        box.Send(1);
        var never = new Mailbox<int>("never sent to");
        var thread = Scheduler.Spawn(Body(), "parker");
        var fault = Assert.ThrowsAny<InvalidOperationException>(() => Join(thread));
        Assert.Contains("'parker' made Put() into Mailbox<Int32> 'full box'", fault.Message, StringComparison.Ordinal);
        Assert.Equal(ThreadOutcome.Faulted, thread.Outcome);

        IEnumerable<Event> Body()
        {
            box.Put(2);
            yield return never.Recv();
        }
    }

    [Fact]
    public void UnyieldedPut_ABodyThatEndsFirst_EndsFaulted()
    {
        var box = new Mailbox<int>(1, "full box");
        box.Send(1);
        var thread = Scheduler.Spawn(Body(), "ender");
        var fault = Assert.ThrowsAny<InvalidOperationException>(() => Join(thread));
        Assert.Contains("'ender' made Put() into Mailbox<Int32> 'full box'", fault.Message, StringComparison.Ordinal);

        IEnumerable<Event> Body()
        {
            box.Put(2);
            yield break;
        }
    }

    [Fact]
    public void UnyieldedPut_PutsYieldedRightAway_AcrossStepBudgets_AndWithTimeouts_SendEveryMessage_AndFaultNothing()
    {
        // A full mailbox at nearly every put, the budget running out at many of their yields (deferred parks), and
        // timed puts: every message arrives, in order, and no thread faults.
        const int Count = 5_000;
        var box = new Mailbox<int>(1, "narrow");
        var received = new List<int>();
        var consumer = Scheduler.Spawn(Consume(), "consumer");
        var producer = Scheduler.Spawn(Produce(), "producer");
        Join(producer);
        Join(consumer);
        Assert.Equal(System.Linq.Enumerable.Range(0, Count), received);

        IEnumerable<Event> Produce()
        {
            for (var i = 0; i < Count; i++)
            {
                if (i % 2 == 0)
                {
                    yield return box.Put(i);
                }
                else
                {
                    var timed = box.Put(i).WithTimeout(Timeout);
                    yield return timed;
                    Assert.False(timed.TimedOut);
                }
            }

            box.Complete();
        }

        IEnumerable<Event> Consume()
        {
            while (true)
            {
                yield return box.Recv();
                if (box.Recv().IsCompleted)
                {
                    yield break;
                }

                received.Add(box.Recv().Value);
            }
        }
    }

    [Fact]
    public void UnyieldedPut_AStopAskedWhileAPutIsUnyielded_IsNotLost()
    {
        var box = new Mailbox<int>(1, "full box");
        box.Send(1);
        var stopped = false;
        var thread = Scheduler.Spawn(Body(), "stopping");
        WaitUntil(() => thread.IsCompleted, "the thread ends");
        Assert.True(stopped);
        Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        Assert.Equal(1, box.Count);

        IEnumerable<Event> Body()
        {
            var put = box.Put(2);
            stopped = GreenThread.Current!.Stop("while its put was unyielded");
            yield return put;
        }
    }

    [Fact]
    public void UnyieldedPut_TwoPutsMadeAndYieldedInTheOtherOrder_FaultNothing_AndSendBoth()
    {
        const int Rounds = 300;
        var left = new Mailbox<int>(1, "left");
        var right = new Mailbox<int>(1, "right");
        var received = new List<int>[] { new(), new() };
        var consumers = new[] { Scheduler.Spawn(Consume(left, received[0]), "left consumer"), Scheduler.Spawn(Consume(right, received[1]), "right consumer") };
        Run(Produce(), "producer");
        left.Complete();
        right.Complete();
        Join(consumers[0]);
        Join(consumers[1]);
        Assert.Equal(System.Linq.Enumerable.Range(0, Rounds), received[0]);
        Assert.Equal(System.Linq.Enumerable.Range(0, Rounds), received[1]);

        IEnumerable<Event> Produce()
        {
            for (var i = 0; i < Rounds; i++)
            {
                // Either may find its mailbox full and be marked; the other's park takes the mark back.
                var first = left.Put(i);
                var second = right.Put(i);
                yield return second;
                yield return first;
            }
        }

        static IEnumerable<Event> Consume(Mailbox<int> box, List<int> into)
        {
            while (true)
            {
                yield return box.Recv();
                if (box.Recv().IsCompleted)
                {
                    yield break;
                }

                into.Add(box.Recv().Value);
            }
        }
    }
}
