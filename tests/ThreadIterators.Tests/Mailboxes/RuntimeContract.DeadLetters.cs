using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Dead letters, under every configuration: when a mailbox's receiving thread ends (unless the mailbox outlives it),
/// the messages still queued and every message sent later go to the scheduler's dead letters, each counted and
/// raised once; a bounded mailbox's waiting senders are released with an exception naming it.
/// </summary>
public abstract partial class RuntimeContract
{
    /// <summary>How a receiver ends in the dead-letter tests.</summary>
    public enum ReceiverEnd
    {
        Normally,
        ByAFault,
        ByAStop,
    }

    [Fact]
    public void DeadLetters_ReportedForATargetOfAnotherPackage_AreCountedAndRaised_AsTheLibrarysOwn()
    {
        var letters = new ConcurrentQueue<DeadLetterEventArgs>();
        Scheduler.DeadLetter += (_, e) => letters.Enqueue(e);
        var target = new object();
        Scheduler.ReportDeadLetter("lost", target, DeadLetterReason.Undeliverable);
        Scheduler.ReportDeadLetter(null, target, DeadLetterReason.Undeliverable);

        Assert.Equal(2, Scheduler.DeadLetterCount);
        Assert.Equal(["lost", null], letters.Select(letter => letter.Message));
        Assert.All(letters, letter =>
        {
            Assert.Same(target, letter.Mailbox);
            Assert.Equal(DeadLetterReason.Undeliverable, letter.Reason);
            Assert.Null(letter.Receiver);
        });
        Assert.Throws<ArgumentNullException>(() => Scheduler.ReportDeadLetter("x", null!, DeadLetterReason.Undeliverable));
        var badReason = Assert.Throws<ArgumentOutOfRangeException>(() => Scheduler.ReportDeadLetter("x", target, (DeadLetterReason)99));
        Assert.Equal("reason", badReason.ParamName);
        Assert.Equal(2, Scheduler.DeadLetterCount);
    }

    [Theory]
    [InlineData(ReceiverEnd.Normally)]
    [InlineData(ReceiverEnd.ByAFault)]
    [InlineData(ReceiverEnd.ByAStop)]
    public void DeadLetters_QueuedWhenTheReceiverEnds_AndSentAfter_EachRaisedOnce_WithItsReason(ReceiverEnd end)
    {
        var letters = new ConcurrentQueue<DeadLetterEventArgs>();
        Scheduler.DeadLetter += (_, e) => letters.Enqueue(e);
        var inbox = new Mailbox<int>("mortal");
        var release = new Mailbox<int>("release");
        var taken = new List<int>();
        var receiver = Scheduler.Spawn(TakeTwoThenEnd(), "receiver");
        for (var i = 0; i < 5; i++)
        {
            inbox.Send(i);
        }

        WaitUntil(() => taken.Count == 2 && release.IsReceiverParked, "the receiver takes two and waits");
        if (end == ReceiverEnd.ByAStop)
        {
            receiver.Stop("enough");
        }
        else
        {
            release.Send(0);
        }

        WaitUntil(() => receiver.IsCompleted, "the receiver ends");
        Assert.Equal(3, Scheduler.DeadLetterCount);

        // Sent after the end: never queued, every one a dead letter, and the send itself succeeds.
        for (var i = 5; i < 8; i++)
        {
            inbox.Send(i);
        }

        Assert.True(inbox.TrySend(8));
        Assert.Equal(7, Scheduler.DeadLetterCount);
        Assert.Equal(0, inbox.Count);
        Assert.Equal([0, 1], taken);
        Assert.Equal([2, 3, 4, 5, 6, 7, 8], letters.Select(e => (int)e.Message!));
        Assert.Equal(
            [.. Enumerable.Repeat(DeadLetterReason.QueuedWhenReceiverEnded, 3), .. Enumerable.Repeat(DeadLetterReason.SentAfterReceiverEnded, 4)],
            letters.Select(e => e.Reason));
        Assert.All(letters, e => Assert.Same(inbox, e.Mailbox));
        Assert.All(letters, e => Assert.Same(receiver, e.Receiver));
        Assert.Contains("'mortal'", letters.First().ToString(), StringComparison.Ordinal);
        Assert.Equal(end switch { ReceiverEnd.Normally => ThreadOutcome.Completed, ReceiverEnd.ByAFault => ThreadOutcome.Faulted, _ => ThreadOutcome.Canceled }, receiver.Outcome);

        IEnumerable<Event> TakeTwoThenEnd()
        {
            for (var i = 0; i < 2; i++)
            {
                var message = inbox.Recv();
                yield return message;
                taken.Add(message.Value);
            }

            yield return release.Recv();
            if (end == ReceiverEnd.ByAFault)
            {
                throw new InvalidOperationException("the receiver fails");
            }
        }
    }

    [Fact]
    public void DeadLetters_RacingSendersWhileTheReceiverEnds_EveryMessageIsReceivedOrADeadLetter_ExactlyOnce()
    {
        const int Senders = 3;
        const int PerSender = 2_000;
        for (var round = 0; round < 10; round++)
        {
            var before = Scheduler.DeadLetterCount;
            var letters = new ConcurrentBag<int>();
            EventHandler<DeadLetterEventArgs> collect = (_, e) => letters.Add((int)e.Message!);
            Scheduler.DeadLetter += collect;
            var inbox = new Mailbox<int>($"racing {round}");
            var received = new List<int>();

            // The receiver ends after a varying share of the messages, while the senders are still sending.
            var stopAfter = PerSender * (round + 1) / 4;
            var receiver = Scheduler.Spawn(ReceiveUntil(), $"receiver {round}");
            var senders = Enumerable.Range(0, Senders).Select(s => new Thread(() =>
            {
                for (var i = 0; i < PerSender; i++)
                {
                    inbox.Send((s * PerSender) + i);
                }
            })).ToList();
            senders.ForEach(t => t.Start());
            senders.ForEach(t => Assert.True(t.Join(Timeout), "a sender finishes"));
            Join(receiver);
            Scheduler.DeadLetter -= collect;

            Assert.Equal(Senders * PerSender, received.Count + letters.Count);
            Assert.Equal(letters.Count, Scheduler.DeadLetterCount - before);
            Assert.Equal(Enumerable.Range(0, Senders * PerSender), received.Concat(letters).Order());
            Assert.Equal(0, inbox.Count);

            IEnumerable<Event> ReceiveUntil()
            {
                var message = inbox.Recv();
                while (received.Count < stopAfter)
                {
                    yield return message;
                    received.Add(message.Value);
                }
            }
        }
    }

    [Theory]
    [InlineData(ReceiverEnd.Normally)]
    [InlineData(ReceiverEnd.ByAFault)]
    public async Task DeadLetters_BoundedReceiverEnds_WhileAPutASendAndASendAsyncWait_AllThreeAreReleased_NamingTheMailbox(ReceiverEnd end)
    {
        var inbox = new Mailbox<int>(2, "narrow");
        var release = new Mailbox<int>("release");
        var receiver = Scheduler.Spawn(BindThenEnd(), "receiver");
        WaitUntil(() => release.IsReceiverParked, "the receiver has bound the mailbox and waits");
        Assert.True(inbox.TrySend(1));
        Assert.True(inbox.TrySend(2));

        var putter = Scheduler.Spawn(PutOne(), "putter");
        Exception? blockedFailure = null;
        var blocked = new Thread(() =>
        {
            try
            {
                inbox.Send(4);
            }
            catch (Exception exception)
            {
                blockedFailure = exception;
            }
        });
        blocked.Start();
        var sendAsync = inbox.SendAsync(5).AsTask();
        WaitUntil(() => Probe.WaitingSenders(inbox) == 3, "the three senders wait for room");

        release.Send(0);
        var putFailure = await Assert.ThrowsAsync<ChannelClosedException>(() => putter.AsTask().WaitAsync(Timeout));
        Assert.True(blocked.Join(Timeout), "the blocked OS sender is released");
        var asyncFailure = await Assert.ThrowsAsync<ChannelClosedException>(() => sendAsync.WaitAsync(Timeout));
        foreach (var failure in new[] { putFailure, Assert.IsType<ChannelClosedException>(blockedFailure), asyncFailure })
        {
            Assert.Contains("'narrow'", failure.Message, StringComparison.Ordinal);
            Assert.Contains("'receiver'", failure.Message, StringComparison.Ordinal);
        }

        // The two queued messages went to the dead letters; later sends are refused the same way, and counted nowhere.
        Assert.Equal(2, Scheduler.DeadLetterCount);
        Assert.False(inbox.TrySend(6));
        Assert.Contains("'receiver'", Assert.Throws<ChannelClosedException>(() => inbox.Send(7)).Message, StringComparison.Ordinal);
        Assert.Equal(2, Scheduler.DeadLetterCount);
        if (end == ReceiverEnd.ByAFault)
        {
            Assert.Equal(ThreadOutcome.Faulted, receiver.Outcome);
        }

        IEnumerable<Event> BindThenEnd()
        {
            Assert.False(inbox.TryRecv(out _));   // Binds the empty mailbox.
            yield return release.Recv();
            if (end == ReceiverEnd.ByAFault)
            {
                throw new InvalidOperationException("the receiver fails");
            }
        }

        IEnumerable<Event> PutOne()
        {
            yield return inbox.Put(3);
        }
    }

    [Fact]
    public void DeadLetters_ReceiverOfADisposedScheduler_LaterSendsAreEachCounted()
    {
        var other = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, Name = "short-lived" });
        var inbox = new Mailbox<int>("orphaned");
        var receiver = other.Spawn(TakeOne(inbox, _ => { }), "parked");
        WaitUntil(() => inbox.IsReceiverParked, "the receiver parks");
        other.Dispose();
        Assert.Equal(ThreadOutcome.Canceled, receiver.Outcome);

        var raised = 0;
        other.DeadLetter += (_, _) => Interlocked.Increment(ref raised);
        for (var i = 0; i < 1_000; i++)
        {
            inbox.Send(i);
        }

        Assert.Equal(1_000, other.DeadLetterCount);
        Assert.Equal(1_000, raised);
        Assert.Equal(0, inbox.Count);
    }

    [Fact]
    public async Task DeadLetters_ATakeOverOfAMailboxThatDidNotOutliveItsReceiver_IsRefused_NamingBoth()
    {
        var inbox = new Mailbox<int>("single owner");
        Run(TakeNone(inbox), "first");
        var second = Scheduler.Spawn(TakeOne(inbox, _ => { }), "second");
        var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => second.AsTask().WaitAsync(Timeout));
        Assert.Contains("'single owner'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("'first'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("'second'", refused.Message, StringComparison.Ordinal);
        Assert.Contains(nameof(Mailbox<int>.OutlivesReceiver), refused.Message, StringComparison.Ordinal);

        var byReader = Assert.Throws<InvalidOperationException>(inbox.AsChannelReader);
        Assert.Contains("'first'", byReader.Message, StringComparison.Ordinal);

        static IEnumerable<Event> TakeNone(Mailbox<int> inbox)
        {
            Assert.False(inbox.TryRecv(out _));
            yield break;
        }
    }

    [Fact]
    public void DeadLetters_AHandlerThatThrows_DoesNotFailTheSend_AndEveryLetterIsStillCounted()
    {
        var calls = 0;
        Scheduler.DeadLetter += (_, _) =>
        {
            Interlocked.Increment(ref calls);
            throw new InvalidOperationException("a careless handler");
        };
        var inbox = new Mailbox<int>("careless");
        Run(TakeNone(inbox), "gone");
        inbox.Send(1);
        inbox.Send(2);
        Assert.Equal(2, Scheduler.DeadLetterCount);
        Assert.Equal(2, calls);

        static IEnumerable<Event> TakeNone(Mailbox<int> inbox)
        {
            Assert.False(inbox.TryRecv(out _));
            yield break;
        }
    }

    [Fact]
    public void UnobservedFault_AHandlerThatThrows_EveryOtherFaultIsStillReported_AndDisposeReturns()
    {
        var other = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var reported = new ConcurrentQueue<string>();
        other.UnobservedFault += (_, e) =>
        {
            reported.Enqueue(e.Exception.Message);
            throw new InvalidOperationException("a careless handler");
        };
        var threads = Enumerable.Range(0, 3).Select(i => other.Spawn(Fail(i), $"failing {i}")).ToList();
        WaitUntil(() => other.LiveThreadCount == 0, "the three threads fault");
        other.Dispose();
        Assert.Equal(["fault 0", "fault 1", "fault 2"], reported.Order());
        GC.KeepAlive(threads);

        static IEnumerable<Event> Fail(int i)
        {
            yield return Event.Yield;
            throw new InvalidOperationException($"fault {i}");
        }
    }

    [Fact]
    public async Task Dispose_AFinallyBlockThatSendsToAFullBoundedMailbox_IsRefused_AndTheDisposalFinishes()
    {
        var other = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, Name = "closing" });
        var full = new Mailbox<int>(1, "full") { OutlivesReceiver = true };
        Assert.True(full.TrySend(0));
        Exception? refused = null;
        var hold = new Mailbox<int>("hold");
        other.Spawn(SendOnTheWayOut(), "polite");
        WaitUntil(() => hold.IsReceiverParked, "the thread parks");
        await Task.Run(other.Dispose).WaitAsync(Timeout);
        var exception = Assert.IsType<InvalidOperationException>(refused);
        Assert.Contains("'polite'", exception.Message, StringComparison.Ordinal);
        Assert.Contains("'full'", exception.Message, StringComparison.Ordinal);
        Assert.Contains("finally", exception.Message, StringComparison.Ordinal);

        IEnumerable<Event> SendOnTheWayOut()
        {
            try
            {
                yield return hold.Recv();
            }
            finally
            {
                try
                {
                    full.Send(1);
                }
                catch (InvalidOperationException e)
                {
                    refused = e;
                }
            }
        }
    }
}
