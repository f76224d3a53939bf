using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans.Tests;

/// <summary>Links between a green thread on one silo and a process on another, Erlang's link across nodes.</summary>
[Collection(nameof(SharedCluster))]
public sealed class LinkTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AProcessThatFaults_StopsTheThreadLinkedToItOnAnotherSilo_WhoseFinallyRuns()
    {
        var name = $"linked/{Guid.NewGuid():N}";
        await fixture.Second.SpawnAsync<int>(name, EndsAsTold);
        var (thread, finallyRan, _) = SpawnWaiter(fixture.First);
        var link = fixture.First.Get<int>(name).Link(thread);
        await WaitUntilSet(fixture.First, link);

        fixture.First.Get<int>(name).Send(1);
        await finallyRan.Task.WaitAsync(Generous);
        await thread.AsTask().ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(Generous);
        Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        Assert.Contains("Faulted", thread.Exception?.Message ?? string.Empty, StringComparison.Ordinal);
        Assert.True(link.HasFired);
    }

    [Fact]
    public async Task AThreadThatFaults_StopsTheProcessLinkedToIt_AfterTheMessagesItSentBeforeReachedItsInbox_AndItsMonitorsReadWhy()
    {
        var name = $"linked/{Guid.NewGuid():N}";
        var received = 0;
        var queuedAtEnd = 0;
        var otherDeadLetters = new ConcurrentQueue<string>();
        Mailbox<int>? collectorInbox = null;
        IEnumerable<Event> Collector(Mailbox<int> inbox)
        {
            collectorInbox = inbox;
            while (true)
            {
                yield return inbox.Recv();
                Interlocked.Increment(ref received);
            }
        }

        // The exit follows the messages: each of them was in the inbox before it, taken by the collector or left there
        // as it was stopped (a dead letter, queued when its receiver ended), none refused as sent after its end.
        void OnDeadLetter(object? sender, DeadLetterEventArgs e)
        {
            if (ReferenceEquals(e.Mailbox, collectorInbox))
            {
                if (e.Reason == DeadLetterReason.QueuedWhenReceiverEnded)
                {
                    Interlocked.Increment(ref queuedAtEnd);
                }
                else
                {
                    otherDeadLetters.Enqueue($"{e.Message}: {e.Reason}");
                }
            }
        }

        fixture.Second.Scheduler.DeadLetter += OnDeadLetter;
        await fixture.Second.SpawnAsync<int>(name, Collector);
        var target = fixture.First.Get<int>(name);
        var downs = new Mailbox<ProcessDown>();
        var heard = new TaskCompletionSource<ProcessDown>(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Watcher()
        {
            yield return downs.Recv();
            heard.TrySetResult(downs.Recv().Value);
        }

        fixture.First.Scheduler.Spawn(Watcher(), "watcher");
        var monitor = target.Monitor(downs);
        await LifetimeTests.WaitUntil(() => monitor.HasFired || fixture.First.Node().Monitors.HostOf(monitor) is not null);

        var go = new Mailbox<int>();
        IEnumerable<Event> Crasher()
        {
            yield return go.Recv();
            for (var i = 0; i < 100; i++)
            {
                target.Send(i);
            }

            throw new InvalidOperationException("the crasher crashed");
        }

        var crasher = fixture.First.Scheduler.Spawn(Crasher(), "crasher");
        var link = target.Link(crasher);
        await WaitUntilSet(fixture.First, link);
        go.Send(0);

        var down = await heard.Task.WaitAsync(Generous);
        Assert.Equal(ProcessExitReason.Stopped, down.Reason);
        Assert.Contains("the crasher crashed", down.Detail, StringComparison.Ordinal);
        Assert.Contains("crasher", down.Detail, StringComparison.Ordinal);
        await LifetimeTests.WaitUntil(() => Volatile.Read(ref received) + Volatile.Read(ref queuedAtEnd) >= 100);
        fixture.Second.Scheduler.DeadLetter -= OnDeadLetter;
        Assert.Equal(100, Volatile.Read(ref received) + Volatile.Read(ref queuedAtEnd));
        Assert.True(otherDeadLetters.IsEmpty, string.Join("; ", otherDeadLetters));
        Assert.True(link.HasFired);
        await Assert.ThrowsAsync<InvalidOperationException>(() => crasher.AsTask().WaitAsync(Generous));
    }

    [Fact]
    public async Task ANormalEndOnEitherSide_StopsNobody_AndARemovedLinkActsOnNeither()
    {
        // The process ends normally: the thread goes on.
        var name = $"linked/{Guid.NewGuid():N}";
        await fixture.Second.SpawnAsync<int>(name, EndsAsTold);
        var (thread, finallyRan, release) = SpawnWaiter(fixture.First);
        var link = fixture.First.Get<int>(name).Link(thread);
        await WaitUntilSet(fixture.First, link);
        fixture.First.Get<int>(name).Send(0);
        await LifetimeTests.WaitUntil(() => link.HasFired);
        Assert.False(thread.IsCompleted, "A normal end of the process stopped the linked thread.");

        // A removed link: the process faults, and the thread still goes on.
        var second = $"linked/{Guid.NewGuid():N}";
        await fixture.Second.SpawnAsync<int>(second, EndsAsTold);
        var removed = fixture.First.Get<int>(second).Link(thread);
        await WaitUntilSet(fixture.First, removed);
        Assert.True(removed.Remove());
        var downs = new Mailbox<ProcessDown>();
        var monitor = fixture.First.Get<int>(second).Monitor(downs);
        fixture.First.Get<int>(second).Send(1);
        await LifetimeTests.WaitUntil(() => monitor.HasFired);
        Assert.False(thread.IsCompleted, "A removed link stopped the thread.");
        Assert.False(removed.HasFired);

        release.Send(0);
        await finallyRan.Task.WaitAsync(Generous);
        await thread.AsTask().WaitAsync(Generous);
        Assert.Equal(ThreadOutcome.Completed, thread.Outcome);
    }

    [Fact]
    public async Task ALinkToANameNoProcessHolds_StopsTheThreadAtOnce()
    {
        var (thread, finallyRan, _) = SpawnWaiter(fixture.First);
        var link = fixture.First.Get<int>($"nobody/{Guid.NewGuid():N}").Link(thread);
        await finallyRan.Task.WaitAsync(Generous);
        await thread.AsTask().ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(Generous);
        Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        Assert.Contains(nameof(ProcessExitReason.NoProcess), thread.Exception?.Message ?? string.Empty, StringComparison.Ordinal);
        Assert.True(link.HasFired);
    }

    [Fact]
    public async Task ALinkedThreadsExit_StopsOnlyTheIncarnationItWasLinkedTo()
    {
        var name = $"linked/{Guid.NewGuid():N}";
        await fixture.Second.SpawnAsync<int>(name, EndsAsTold);
        var downs = new Mailbox<ProcessDown>();
        var monitor = fixture.First.Get<int>(name).Monitor(downs);
        await LifetimeTests.WaitUntil(() => monitor.HasFired || fixture.First.Node().Monitors.HostOf(monitor) is not null);
        var incarnation = fixture.First.Node().Monitors.IncarnationOf(monitor);
        Assert.NotEqual(Guid.Empty, incarnation);

        // An exit for another incarnation is taken, and stops nothing; one for this incarnation stops it.
        fixture.First.Node().SendExit(name, new LinkedExit { Detail = "for an earlier process", Incarnation = Guid.NewGuid() });
        fixture.First.Node().SendExit(name, new LinkedExit { Detail = "for this process", Incarnation = incarnation });
        await LifetimeTests.WaitUntil(() => monitor.HasFired);
        var heard = new TaskCompletionSource<ProcessDown>(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Watcher()
        {
            yield return downs.Recv();
            heard.TrySetResult(downs.Recv().Value);
        }

        fixture.First.Scheduler.Spawn(Watcher(), "watcher");
        var down = await heard.Task.WaitAsync(Generous);
        Assert.Equal(ProcessExitReason.Stopped, down.Reason);
        Assert.Equal("for this process", down.Detail);
    }

    /// <summary>A process that ends when told: 0 returns, anything else throws.</summary>
    private static IEnumerable<Event> EndsAsTold(Mailbox<int> inbox)
    {
        yield return inbox.Recv();
        if (inbox.Recv().Value != 0)
        {
            throw new InvalidOperationException("told to fail");
        }
    }

    /// <summary>Spawns a thread that waits on a mailbox until released, and says when its finally block ran.</summary>
    private static (GreenThread Thread, TaskCompletionSource FinallyRan, Mailbox<int> Release) SpawnWaiter(ClusterProcesses processes)
    {
        var release = new Mailbox<int>();
        var finallyRan = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Waiter()
        {
            try
            {
                yield return release.Recv();
            }
            finally
            {
                finallyRan.TrySetResult();
            }
        }

        return (processes.Scheduler.Spawn(Waiter(), "linked thread"), finallyRan, release);
    }

    private static Task WaitUntilSet(ClusterProcesses processes, ProcessLink link) =>
        LifetimeTests.WaitUntil(() => link.HasFired || (link.Monitor is { } monitor && processes.Node().Monitors.HostOf(monitor) is not null));
}
