using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Watches and links, under every configuration: a watch sends one <see cref="ThreadExit"/> however its thread ends,
/// or none once removed; a link stops the other thread on an abnormal end, or tells it if it traps exits.
/// </summary>
public abstract partial class RuntimeContract
{
    /// <summary>How a watched thread ends.</summary>
    public enum WatchedEnd
    {
        Completes,
        Faults,
        IsStopped,
        CancelsItself,
        IsDisposedWithItsScheduler,
        HadEndedBeforeTheWatch,
    }

    [Theory]
    [InlineData(WatchedEnd.Completes)]
    [InlineData(WatchedEnd.Faults)]
    [InlineData(WatchedEnd.IsStopped)]
    [InlineData(WatchedEnd.CancelsItself)]
    [InlineData(WatchedEnd.IsDisposedWithItsScheduler)]
    [InlineData(WatchedEnd.HadEndedBeforeTheWatch)]
    public async Task Watch_ThreadThatEndsInEachWay_SendsExactlyOneExit_WithTheReason(WatchedEnd end)
    {
        var scheduler = end == WatchedEnd.IsDisposedWithItsScheduler
            ? new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy })
            : Scheduler;
        var exits = new Mailbox<ThreadExit>("exits");
        var release = new Mailbox<int>("release") { OutlivesReceiver = true };
        var watched = scheduler.Spawn(EndAs(end == WatchedEnd.HadEndedBeforeTheWatch ? WatchedEnd.Faults : end), "watched");
        if (end == WatchedEnd.HadEndedBeforeTheWatch)
        {
            release.Send(0);
            WaitUntil(() => watched.IsCompleted, "the thread ends before the watch");
        }

        var watch = watched.Watch(exits);
        var second = watched.Watch(exits);
        switch (end)
        {
            case WatchedEnd.IsStopped:
                WaitUntil(() => release.IsReceiverParked, "the thread waits");
                watched.Stop("enough");
                break;
            case WatchedEnd.IsDisposedWithItsScheduler:
                WaitUntil(() => release.IsReceiverParked, "the thread waits");
                await scheduler.DisposeAsync().AsTask().WaitAsync(Timeout);
                break;
            case WatchedEnd.HadEndedBeforeTheWatch:
                break;
            default:
                release.Send(0);
                break;
        }

        var received = new List<ThreadExit>();
        Run(Collect(2), "collector");
        Assert.Equal(2, received.Count);
        Assert.Equal([watch, second], received.Select(e => e.Watch).OrderBy(w => w == second));
        Assert.All(received, e => Assert.Same(watched, e.Thread));
        Assert.All(received, e => Assert.Equal(watched.Outcome, e.Outcome));
        Assert.All(received, e => Assert.Same(watched.Exception, e.Exception));
        Assert.True(watch.HasFired);
        Assert.False(watch.Remove(), "a watch that fired cannot be removed");
        var expected = end switch
        {
            WatchedEnd.Completes => ThreadOutcome.Completed,
            WatchedEnd.Faults or WatchedEnd.HadEndedBeforeTheWatch => ThreadOutcome.Faulted,
            _ => ThreadOutcome.Canceled,
        };
        Assert.Equal(expected, received[0].Outcome);
        Assert.Equal(expected != ThreadOutcome.Completed, received[0].IsAbnormal);
        if (end == WatchedEnd.IsStopped)
        {
            Assert.Equal("enough", Assert.IsType<GreenThreadStoppedException>(received[0].Exception).Reason);
        }

        Assert.Equal(0, exits.Count);

        IEnumerable<Event> EndAs(WatchedEnd how)
        {
            yield return release.Recv();
            switch (how)
            {
                case WatchedEnd.Faults:
                    throw new InvalidOperationException("the watched thread fails");
                case WatchedEnd.CancelsItself:
                    throw new OperationCanceledException("the watched thread gives up");
            }
        }

        IEnumerable<Event> Collect(int count)
        {
            var exit = exits.Recv();
            for (var i = 0; i < count; i++)
            {
                yield return exit;
                received.Add(exit.Value);
            }
        }
    }

    [Fact]
    public void Watch_RemovedWhileItsThreadEnds_EitherRemoveWinsAndNoExitIsSent_OrItLosesAndExactlyOneIs()
    {
        const int Rounds = 200;
        var exits = new Mailbox<ThreadExit>("racing exits") { OutlivesReceiver = true };
        for (var round = 0; round < Rounds; round++)
        {
            var release = new Mailbox<int>($"release {round}");
            var watched = Scheduler.Spawn(WaitThenEnd(release), $"watched {round}");
            var watch = watched.Watch(exits);
            using var start = new Barrier(2);
            var removed = false;
            var remover = new Thread(() =>
            {
                start.SignalAndWait();
                removed = watch.Remove();
            });
            remover.Start();
            start.SignalAndWait();
            release.Send(round);
            Assert.True(remover.Join(Timeout), "the remover finishes");
            Join(watched);

            // Once Remove has returned and the thread has ended, the message is in or never comes.
            Assert.Equal(removed ? 0 : 1, exits.Count);
            Assert.Equal(!removed, watch.HasFired);
            if (!removed)
            {
                Run(TakeOne(exits, _ => { }), $"drain {round}");
            }
        }

        static IEnumerable<Event> WaitThenEnd(Mailbox<int> release)
        {
            yield return release.Recv();
        }
    }

    [Fact]
    public void Watch_RemovedBeforeTheEnd_NeverSends_AndAFaultNothingElseObservedIsReported()
    {
        ExpectUnobservedFaults = true;
        var exits = new Mailbox<ThreadExit>("exits") { OutlivesReceiver = true };
        var release = new Mailbox<int>("release");
        var watched = Scheduler.Spawn(FailOnRelease(), "unwatched in the end");
        var watch = watched.Watch(exits);
        Assert.True(watch.Remove());
        Assert.False(watch.Remove());
        release.Send(0);
        WaitUntil(() => watched.IsCompleted, "the thread faults");
        Assert.Equal(0, exits.Count);
        Assert.False(watch.HasFired);
        Scheduler.Dispose();
        Assert.Contains(Unobserved, e => e.Thread == watched);

        IEnumerable<Event> FailOnRelease()
        {
            yield return release.Recv();
            throw new InvalidOperationException("nobody is listening");
        }
    }

    [Fact]
    public void Watch_IntoABoundedMailbox_IsRefused_NamingIt()
    {
        var thread = Scheduler.Spawn([], "short");
        var refused = Assert.Throws<ArgumentException>(() => thread.Watch(new Mailbox<ThreadExit>(4, "narrow exits")));
        Assert.Contains("'narrow exits'", refused.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentNullException>(() => thread.Watch(null!));
        Assert.Throws<ArgumentException>(() => thread.TrapExits(new Mailbox<ThreadExit>(1, "narrow")));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Link_AnAbnormalEndStopsTheOther_WithTheExitAsReason_ANormalEndDoesNot(bool fault)
    {
        var release = new Mailbox<int>("release");
        var hold = new Mailbox<int>("hold");
        var first = Scheduler.Spawn(EndOnRelease(release, fault), "first");
        var second = Scheduler.Spawn(TakeOne(hold, _ => { }), "second");
        first.Link(second);
        first.Link(second);   // once per pair
        WaitUntil(() => hold.IsReceiverParked, "the second thread waits");
        release.Send(0);
        WaitUntil(() => first.IsCompleted, "the first thread ends");
        if (!fault)
        {
            hold.Send(1);
            Join(second);
            Assert.Equal(ThreadOutcome.Completed, second.Outcome);
            return;
        }

        WaitUntil(() => second.IsCompleted, "the linked thread is stopped");
        Assert.Equal(ThreadOutcome.Canceled, second.Outcome);
        var stopped = Assert.IsType<GreenThreadStoppedException>(second.Exception);
        var exit = Assert.IsType<ThreadExit>(stopped.Reason);
        Assert.Same(first, exit.Thread);
        Assert.Equal(ThreadOutcome.Faulted, exit.Outcome);
        Assert.Contains("'first'", stopped.Message, StringComparison.Ordinal);
        Assert.Same(first.Exception, exit.Exception);
    }

    [Fact]
    public void Link_Chain_AFaultStopsEveryThreadAlongIt_UpToOneThatTrapsExits_WhichGetsItAsAMessage()
    {
        const int Length = 5;
        var release = new Mailbox<int>("release");
        var exits = new Mailbox<ThreadExit>("trapped exits");
        var holds = Enumerable.Range(0, Length).Select(i => new Mailbox<int>($"hold {i}")).ToArray();
        var trapper = Scheduler.Spawn(TakeOne(holds[0], _ => { }), "trapper");
        trapper.TrapExits(exits);
        var chain = new List<GreenThread> { trapper };
        for (var i = 1; i < Length; i++)
        {
            chain.Add(Scheduler.Spawn(TakeOne(holds[i], _ => { }), $"link {i}"));
            chain[i - 1].Link(chain[i]);
        }

        var origin = Scheduler.Spawn(EndOnRelease(release, fault: true), "origin");
        chain[^1].Link(origin);
        release.Send(0);
        WaitUntil(() => chain.Skip(1).All(t => t.IsCompleted), "the stop passes along the chain");
        Assert.All(chain.Skip(1), t => Assert.Equal(ThreadOutcome.Canceled, t.Outcome));

        // The trapper is not stopped: it gets the exit of its neighbour as a message, and goes on.
        var heard = new List<ThreadExit>();
        var listener = Scheduler.Spawn(TakeOne(exits, e => heard.Add(e)), "listener");
        Join(listener);
        Assert.Same(chain[1], Assert.Single(heard).Thread);
        Assert.Equal(ThreadOutcome.Canceled, heard[0].Outcome);
        Assert.False(trapper.IsCompleted);
        holds[0].Send(0);
        Join(trapper);
        Assert.Equal(ThreadOutcome.Faulted, origin.Outcome);
    }

    [Fact]
    public void Link_TrapsExits_HearsANormalEndToo_AndUnlinkThenStopsNothing()
    {
        var exits = new Mailbox<ThreadExit>("exits");
        var listener = Scheduler.Spawn(TakeOne(exits, _ => { }), "listener");
        var release = new Mailbox<int>("release");
        var normal = Scheduler.Spawn(EndOnRelease(release, fault: false), "normal");
        listener.TrapExits(exits);
        listener.Link(normal);
        release.Send(0);
        Join(listener);
        Assert.Equal(ThreadOutcome.Completed, listener.Outcome);

        // Unlinked: a fault of either end touches the other no more.
        var releaseFault = new Mailbox<int>("release fault");
        var hold = new Mailbox<int>("hold");
        var failing = Scheduler.Spawn(EndOnRelease(releaseFault, fault: true), "failing");
        var bystander = Scheduler.Spawn(TakeOne(hold, _ => { }), "bystander");
        failing.Link(bystander);
        Assert.True(bystander.Unlink(failing));
        Assert.False(failing.Unlink(bystander));
        releaseFault.Send(0);
        WaitUntil(() => failing.IsCompleted, "the unlinked thread faults");
        hold.Send(0);
        Join(bystander);
        Assert.Equal(ThreadOutcome.Faulted, failing.Outcome);
    }

    [Fact]
    public void Link_ToAThreadThatHasEndedAbnormally_StopsAtOnce_AndToItselfIsRefused()
    {
        var release = new Mailbox<int>("release");
        var dead = Scheduler.Spawn(EndOnRelease(release, fault: true), "dead");
        release.Send(0);
        WaitUntil(() => dead.IsCompleted, "it faults");
        Assert.Equal(ThreadOutcome.Faulted, dead.Outcome);
        var hold = new Mailbox<int>("hold");
        var late = Scheduler.Spawn(TakeOne(hold, _ => { }), "late");
        WaitUntil(() => hold.IsReceiverParked, "it waits");
        late.Link(dead);
        WaitUntil(() => late.IsCompleted, "the link to an ended thread acts at once");
        Assert.Equal(ThreadOutcome.Canceled, late.Outcome);
        Assert.Throws<ArgumentException>(() => late.Link(late));
    }

    [Fact]
    public void Watch_AndLink_OnOneThread_SomeRemovedFromTheMiddle_OnlyTheRestAct()
    {
        var exits = new Mailbox<ThreadExit>("exits");
        var trapped = new Mailbox<ThreadExit>("trapped");
        var release = new Mailbox<int>("release");
        var hold = new Mailbox<int>("hold");
        var ending = Scheduler.Spawn(EndOnRelease(release, fault: true), "ending");
        var trapper = Scheduler.Spawn(TakeOne(hold, _ => { }), "trapper");
        var cut = Scheduler.Spawn(TakeOne(new Mailbox<int>("never"), _ => { }), "cut");
        trapper.TrapExits(trapped);

        // One list holds them all, most recent first: remove from its head, its middle and its tail.
        var oldest = ending.Watch(exits);
        var tail = ending.Watch(exits);
        ending.Link(cut);
        var middle = ending.Watch(exits);
        trapper.Link(ending);
        var kept = ending.Watch(exits);
        var head = ending.Watch(exits);
        Assert.True(head.Remove());
        Assert.True(middle.Remove());
        Assert.True(oldest.Remove());
        Assert.True(cut.Unlink(ending));
        Assert.False(ending.Unlink(cut));
        release.Send(0);

        var received = new List<ThreadExit>();
        Run(CollectTwo(), "collector");
        Assert.Equal([kept, tail], received.Select(e => e.Watch).OrderBy(w => w == tail));
        Assert.Equal(0, exits.Count);
        Assert.False(head.HasFired || middle.HasFired || oldest.HasFired);
        WaitUntil(() => trapped.Count == 1, "the link tells the thread that traps exits");
        Assert.False(cut.IsCompleted, "a cut link stops nothing");
        Assert.Equal(ThreadOutcome.Faulted, received[0].Outcome);
        hold.Send(0);
        Join(trapper);
        cut.Stop();

        IEnumerable<Event> CollectTwo()
        {
            var exit = exits.Recv();
            for (var i = 0; i < 2; i++)
            {
                yield return exit;
                received.Add(exit.Value);
            }
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Link_TrappedExit_IsSentBeforeAJoinerOrAWaitOfTheEndedThreadGoesOn(bool fault)
    {
        const int Rounds = 50;
        for (var round = 0; round < Rounds; round++)
        {
            var trapped = new Mailbox<ThreadExit>($"trapped {round}");
            var release = new Mailbox<int>($"release {round}");
            var hold = new Mailbox<int>($"hold {round}");
            var trapper = Scheduler.Spawn(TakeOne(hold, _ => { }), $"trapper {round}");
            trapper.TrapExits(trapped);
            var ending = Scheduler.Spawn(EndOnRelease(release, fault), $"ending {round}");
            trapper.Link(ending);
            var seenByJoiner = -1;
            var joiner = Scheduler.Spawn(JoinThenCount(), $"joiner {round}");
            release.Send(round);

            // A link acts once its thread reads as ended, and before anything that waits for the end sees it.
            if (fault)
            {
                Assert.Throws<InvalidOperationException>(() => ending.Wait(Timeout));
            }
            else
            {
                Assert.True(ending.Wait(Timeout));
            }

            Assert.Equal(1, trapped.Count);
            Join(joiner);
            Assert.Equal(1, seenByJoiner);
            hold.Send(round);
            Join(trapper);

            IEnumerable<Event> JoinThenCount()
            {
                yield return ending.Ended;
                seenByJoiner = trapped.Count;
            }
        }
    }

    [Fact]
    public void TrapExits_Null_StopsTrapping_SoALinkedFaultStopsTheThreadAgain()
    {
        var trapped = new Mailbox<ThreadExit>("trapped");
        var release = new Mailbox<int>("release");
        var thread = Scheduler.Spawn(TakeOne(new Mailbox<int>("hold"), _ => { }), "no longer trapping");
        thread.TrapExits(trapped);
        thread.TrapExits(null);
        var failing = Scheduler.Spawn(EndOnRelease(release, fault: true), "failing");
        thread.Link(failing);
        release.Send(0);
        WaitUntil(() => thread.IsCompleted, "the linked thread is stopped");
        Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        Assert.Equal(0, trapped.Count);
        Assert.IsType<InvalidOperationException>(failing.Exception);
    }

    [Fact]
    public void WatchingMembers_OnANullThread_Throw_AndUnlinkWithoutALink_ReturnsFalse()
    {
        var exits = new Mailbox<ThreadExit>("exits");
        var thread = Scheduler.Spawn([], "short");
        GreenThread nothing = null!;
        Assert.Throws<ArgumentNullException>(() => nothing.Watch(exits));
        Assert.Throws<ArgumentNullException>(() => nothing.Link(thread));
        Assert.Throws<ArgumentNullException>(() => thread.Link(nothing));
        Assert.Throws<ArgumentNullException>(() => nothing.Unlink(thread));
        Assert.Throws<ArgumentNullException>(() => nothing.TrapExits(exits));
        Join(thread);
        var other = Scheduler.Spawn([], "other");
        Assert.False(thread.Unlink(other));
        Assert.False(other.Unlink(thread));
        Join(other);
    }

    private static IEnumerable<Event> EndOnRelease(Mailbox<int> release, bool fault)
    {
        yield return release.Recv();
        if (fault)
        {
            throw new InvalidOperationException("the linked thread fails");
        }
    }
}
