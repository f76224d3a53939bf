using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void Ended_TargetEndsNormally_JoinerResumesAndReadsCompleted()
    {
        var gate = new Mailbox<int>();
        var target = Scheduler.Spawn(WaitThenLog(gate, [], "target"), "target");
        var seen = new List<(ThreadOutcome Outcome, Exception? Exception)>();
        var joiner = Scheduler.Spawn(JoinEndedThenRecord(target, seen), "supervisor");
        WaitUntil(() => Probe.HasJoiners(target), "the joiner parks on target.Ended");
        Assert.Equal(ThreadOutcome.Running, target.Outcome);

        gate.Send(0);
        Join(joiner);
        Assert.Equal([(ThreadOutcome.Completed, (Exception?)null)], seen);
        Assert.Equal(ThreadOutcome.Completed, target.Outcome);
        Assert.Equal(ThreadOutcome.Completed, joiner.Outcome);
    }

    [Fact]
    public void Ended_TargetAlreadyEnded_ContinuesAtOnce_AndIsOneEventPerThread()
    {
        var target = Run(Empty(), "quick");
        Assert.Equal(ThreadOutcome.Completed, target.Outcome);
        Assert.Same(target.Ended, target.Ended);
        Assert.NotSame(target.Exited, target.Ended);
        Assert.Equal($"GreenThread #{target.Id} 'quick'.Ended", target.Ended.ToString());

        var seen = new List<(ThreadOutcome Outcome, Exception? Exception)>();
        Run(JoinEndedThenRecord(target, seen));
        Assert.Equal([(ThreadOutcome.Completed, (Exception?)null)], seen);
    }

    [Fact]
    public void Ended_TargetFaults_JoinerKeepsRunningAndReadsTheFault_NothingReportedUnobserved()
    {
        var gate = new Mailbox<int>();
        var target = Scheduler.Spawn(WaitThenThrow(gate), "target");
        var seen = new List<(ThreadOutcome Outcome, Exception? Exception)>();
        var afterwards = new Mailbox<string>("after the join");
        var joiner = Scheduler.Spawn(Supervise(), "supervisor");
        WaitUntil(() => Probe.HasJoiners(target), "the joiner parks on target.Ended");
        gate.Send(0);

        Join(joiner);
        Assert.Equal(ThreadOutcome.Completed, joiner.Outcome);
        Assert.Null(joiner.Exception);
        var (outcome, exception) = Assert.Single(seen);
        Assert.Equal(ThreadOutcome.Faulted, outcome);
        Assert.Equal("target failed", Assert.IsType<InvalidOperationException>(exception).Message);
        Assert.Equal(1, afterwards.Count);
        Assert.Equal(ThreadOutcome.Faulted, target.Outcome);

        Scheduler.Dispose();
        Assert.Empty(Unobserved);

        IEnumerable<Event> Supervise()
        {
            foreach (var step in JoinEndedThenRecord(target, seen))
            {
                yield return step;
            }

            // Still running: it sends, gives up a turn, and ends normally.
            afterwards.Send("still here");
            yield return Event.Yield;
        }
    }

    [Fact]
    public void Ended_YieldedWithoutReadingTheOutcome_CountsAsObservingTheFault()
    {
        var gate = new Mailbox<int>();
        var target = Scheduler.Spawn(WaitThenThrow(gate), "target");
        var joiner = Scheduler.Spawn(JoinEndedOnly(), "joiner");
        WaitUntil(() => Probe.HasJoiners(target), "the joiner parks on target.Ended");
        gate.Send(0);
        Join(joiner);
        WaitForAll();

        Scheduler.Dispose();
        Assert.Empty(Unobserved);

        IEnumerable<Event> JoinEndedOnly()
        {
            yield return target.Ended;
        }
    }

    [Fact]
    public void Outcome_ReadFromPlainCodeAfterAFault_CountsAsObservingIt()
    {
        var thread = Scheduler.Spawn(Throws("read, not joined"), "faulty");
        WaitForAll();
        Assert.Equal(ThreadOutcome.Faulted, thread.Outcome);

        Scheduler.Dispose();
        Assert.Empty(Unobserved);
        Assert.Equal("read, not joined", thread.Exception!.Message);
    }

    [Fact]
    public void Outcome_BodyThrowsOperationCanceled_IsCanceled()
    {
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();
        var thread = Scheduler.Spawn(ThrowIfCancelled(cancelled.Token), "cancelled");
        WaitForAll();
        Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        Assert.IsType<OperationCanceledException>(thread.Exception);

        static IEnumerable<Event> ThrowIfCancelled(CancellationToken token)
        {
            yield return Event.Yield;
            token.ThrowIfCancellationRequested();
        }
    }

    [Fact]
    public async Task Ended_Disposal_TargetAndJoinersParkedOnEndedAndExitedCanceled_JoinersForgottenNotWoken()
    {
        const int joiners = 20;
        var inbox = new Mailbox<int>("never sent to");
        var cleanedUp = 0;
        var resumed = 0;
        var target = Scheduler.Spawn(ParkInsideTry(inbox.Recv()), "target");
        var targetTask = target.AsTask();
        WaitUntil(() => inbox.IsReceiverParked, "the target parks");

        // Spawned after the target, so disposal stops them first (the registry gives back the newest first): each
        // must leave the target's joiners (its event's Abandon), or the target's end would make ended threads ready.
        var parked = Enumerable.Range(0, joiners).Select(i => Scheduler.Spawn(Join(i % 2 == 0 ? target.Ended : target.Exited), $"joiner {i}")).ToList();
        WaitUntil(() => Probe.JoinerCount(target) == joiners, "every joiner parks on target.Ended or target.Exited");

        Scheduler.Dispose();

        Assert.Equal(ThreadOutcome.Canceled, target.Outcome);
        Assert.IsType<OperationCanceledException>(target.Exception);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => targetTask.WaitAsync(Timeout));
        Assert.True(targetTask.IsCanceled);
        Assert.All(parked, j => Assert.Equal(ThreadOutcome.Canceled, j.Outcome));
        Assert.Equal(joiners + 1, cleanedUp);
        Assert.Equal(0, resumed);
        Assert.Equal(0, Probe.QueuedThreads(Scheduler));
        Assert.Equal(0, Scheduler.LiveThreadCount);

        IEnumerable<Event> ParkInsideTry(Event parkOn)
        {
            try
            {
                yield return parkOn;
            }
            finally
            {
                Interlocked.Increment(ref cleanedUp);
            }
        }

        IEnumerable<Event> Join(Event joinOn)
        {
            foreach (var step in ParkInsideTry(joinOn))
            {
                yield return step;
            }

            Interlocked.Increment(ref resumed);
        }
    }

    [Fact]
    public void Ended_ManyJoinersThroughEndedAndExited_EndedOnesGoOnExitedOnesEndWithTheFault()
    {
        const int each = 25;
        var gate = new Mailbox<int>();
        var target = Scheduler.Spawn(WaitThenThrow(gate), "target");
        var seen = new List<(ThreadOutcome Outcome, Exception? Exception)>();
        var supervisors = Enumerable.Range(0, each).Select(i => Scheduler.Spawn(JoinEndedThenRecord(target, seen), $"supervisor {i}")).ToList();
        var exitJoiners = Enumerable.Range(0, each).Select(i => Scheduler.Spawn(JoinThenLog(target, []), $"joiner {i}")).ToList();
        WaitUntil(() => Probe.JoinerCount(target) == 2 * each, "every joiner parks");
        gate.Send(0);

        supervisors.ForEach(Join);
        Assert.Equal(each, seen.Count);
        Assert.All(seen, s => Assert.Equal(ThreadOutcome.Faulted, s.Outcome));
        Assert.All(seen, s => Assert.Same(target.Exception, s.Exception));
        foreach (var joiner in exitJoiners)
        {
            Assert.Same(target.Exception, Assert.Throws<InvalidOperationException>(() => joiner.Wait(Timeout)));
            Assert.Equal(ThreadOutcome.Faulted, joiner.Outcome);
        }
    }

    [Fact]
    public void Ended_OwnEventOrAnotherSchedulersThread_FaultsTheJoinerNamingTheEvent()
    {
        var handle = new Mailbox<GreenThread>();
        var self = Scheduler.Spawn(JoinSelf(), "narcissus");
        handle.Send(self);
        var error = Assert.Throws<InvalidOperationException>(() => self.Wait(Timeout));
        Assert.Contains("'narcissus'.Ended", error.Message, StringComparison.Ordinal);
        Assert.Contains("cannot join itself", error.Message, StringComparison.Ordinal);
        Assert.Equal(ThreadOutcome.Faulted, self.Outcome);

        using var other = new Scheduler(1);
        var gate = new Mailbox<int>();
        var foreign = other.Spawn(WaitThenLog(gate, [], "foreign"), "foreign");
        var local = Scheduler.Spawn(JoinEndedThenRecord(foreign, []), "local");
        error = Assert.Throws<InvalidOperationException>(() => local.Wait(Timeout));
        Assert.Contains("'foreign'.Ended", error.Message, StringComparison.Ordinal);
        Assert.Contains("another scheduler", error.Message, StringComparison.Ordinal);
        gate.Send(0);
        Assert.True(foreign.Wait(Timeout));

        IEnumerable<Event> JoinSelf()
        {
            var me = handle.Recv();
            yield return me;
            yield return me.Value.Ended;
        }
    }

    private static IEnumerable<Event> JoinEndedThenRecord(GreenThread target, List<(ThreadOutcome Outcome, Exception? Exception)> seen)
    {
        yield return target.Ended;
        lock (seen)
        {
            seen.Add((target.Outcome, target.Exception));
        }
    }
}
