using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

// A Put(message) into a full mailbox sends only when yielded, and an ask's reply is read only by its yield: made and
// dropped, either faults its thread at the next yield or at the body's end, naming the thread and the event, instead of
// losing the message or the reply without a word (GreenThread.Stopping.cs, the unyielded event's mark).
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
    public void UnyieldedAsk_ACallerThatYieldsSomethingElseNext_FaultsThere_NamingTheAsk()
    {
        var inbox = new Mailbox<ReplyTo<int>>("server");
        var replied = new ManualResetEventSlim(false);
        bool? delivered = null;
        var server = Scheduler.Spawn(Serve(), "server");
        var caller = Scheduler.Spawn(Ask(), "asker");
        var fault = Assert.ThrowsAny<InvalidOperationException>(() => Join(caller));
        Assert.Contains("'asker' made", fault.Message, StringComparison.Ordinal);
        Assert.Contains("its reply would never be read", fault.Message, StringComparison.Ordinal);
        Join(server);
        Assert.NotNull(delivered);

        IEnumerable<Event> Serve()
        {
            yield return inbox.Recv();
            delivered = inbox.Recv().Value.Reply(7);
        }

        IEnumerable<Event> Ask()
        {
            inbox.Ask((ReplyTo<int> reply) => reply, Timeout);
            yield return Event.Sleep(TimeSpan.FromMilliseconds(1));
        }
    }

    [Fact]
    public void UnyieldedAsk_AnAskYieldedInAChoiceOrRightAway_IsAnsweredAndFaultsNothing()
    {
        const int Asks = 500;
        var inbox = new Mailbox<ReplyTo<int>>("server");
        var other = new Mailbox<int>("never sent to");
        var sum = 0L;
        var server = Scheduler.Spawn(Serve(), "server");
        Run(Ask(), "asker");
        inbox.Complete();
        Join(server);
        Assert.Equal((long)Asks * (Asks - 1) / 2, sum);

        IEnumerable<Event> Serve()
        {
            var n = 0;
            while (true)
            {
                yield return inbox.Recv();
                if (inbox.Recv().IsCompleted)
                {
                    yield break;
                }

                inbox.Recv().Value.Reply(n++);
            }
        }

        IEnumerable<Event> Ask()
        {
            for (var i = 0; i < Asks; i++)
            {
                var ask = inbox.Ask((ReplyTo<int> reply) => reply, Timeout);
                if (i % 3 == 2)
                {
                    // Pipelined: a second ask made before the first is yielded, and the two yielded in the other order.
                    var second = inbox.Ask((ReplyTo<int> reply) => reply, Timeout);
                    yield return second;
                    yield return ask;
                    sum += ask.Value + second.Value;
                    i++;
                    continue;
                }

                if (i % 3 == 0)
                {
                    yield return ask;
                }
                else
                {
                    var either = new Choice(ask, other.Recv());
                    yield return either;
                    Assert.Equal(0, either.Index);
                }

                sum += ask.Value;
            }
        }
    }
}
