using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void Ids_AreUnique_WhenThreadsSpawnThreadsOnEveryWorker()
    {
        // Workers hand out ids from blocks they reserve; ids spawned from outside come one at a time in between.
        var ids = new System.Collections.Concurrent.ConcurrentBag<long>();
        var first = Scheduler.Spawn(Empty());
        var spawners = Enumerable.Range(0, 8).Select(_ => Scheduler.Spawn(SpawnMany(3_000))).ToList();
        spawners.ForEach(Join);
        Assert.True(Scheduler.WaitForAll(Waiting.Timeout), "the spawned threads did not all end");

        Assert.Equal(1, first.Id);
        Assert.Equal(8 * 3_000, ids.Count);
        Assert.Equal(ids.Count + spawners.Count + 1, ids.Concat(spawners.Select(s => s.Id)).Append(first.Id).Distinct().Count());

        IEnumerable<Event> SpawnMany(int count)
        {
            for (var i = 0; i < count; i++)
            {
                ids.Add(Scheduler.Spawn(Empty()).Id);
                if (i % 100 == 0)
                {
                    yield return Event.Yield;
                }
            }
        }
    }

    [Fact]
    public void Exited_YieldedByAnotherThread_ResumesJoinerAfterTargetEnds()
    {
        var log = new List<string>();
        var gate = new Mailbox<int>();
        var target = Scheduler.Spawn(WaitThenLog(gate, log, "target"), "target");
        var joiner = Scheduler.Spawn(JoinThenLog(target, log), "joiner");
        WaitUntil(() => Probe.HasJoiners(target), "the joiner parks on target.Exited");
        gate.Send(0);
        Join(joiner);
        Assert.Equal(["target", "joined"], log);
        Assert.True(target.IsCompleted);
    }

    [Fact]
    public void Exited_SeveralJoiners_AllResume()
    {
        var gate = new Mailbox<int>();
        var target = Scheduler.Spawn(WaitThenLog(gate, [], "target"));
        var joiners = Enumerable.Range(0, 10).Select(_ => Scheduler.Spawn(JoinThenLog(target, []))).ToList();
        gate.Send(0);
        joiners.ForEach(Join);
        Assert.True(target.IsCompleted);
    }

    [Fact]
    public void Exited_AlreadyEnded_ContinuesAtOnce()
    {
        var target = Run(Empty());
        Run(JoinThenLog(target, []));
    }

    [Fact]
    public void Wait_ThreadThrew_RethrowsWithOriginalStackTrace()
    {
        var thread = Scheduler.Spawn(Throws("boom"));
        var error = Assert.Throws<InvalidOperationException>(() => thread.Wait(Timeout));
        Assert.Equal("boom", error.Message);
        Assert.Contains(nameof(ThrowFromDeepInside), error.StackTrace, StringComparison.Ordinal);
        Assert.Same(error, thread.Exception);
    }

    [Fact]
    public async Task Await_ThreadThrew_RethrowsTheException()
    {
        var thread = Scheduler.Spawn(Throws("async boom"));
        var error = await Assert.ThrowsAsync<InvalidOperationException>(async () => await thread.AsTask());
        Assert.Contains(nameof(ThrowFromDeepInside), error.StackTrace, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Exited_TargetThrew_JoinerEndsWithSameException()
    {
        var gate = new Mailbox<int>();
        var target = Scheduler.Spawn(WaitThenThrow(gate), "target");
        var finallyRan = false;
        var joiner = Scheduler.Spawn(JoinInsideTryFinally(), "joiner");
        var observed = joiner.AsTask();
        WaitUntil(() => Probe.HasJoiners(target), "the joiner parks on target.Exited");
        gate.Send(0);

        var error = Assert.Throws<InvalidOperationException>(() => joiner.Wait(Timeout));
        Assert.Same(target.Exception, error);
        Assert.Contains(nameof(ThrowFromDeepInside), error.StackTrace, StringComparison.Ordinal);
        Assert.True(finallyRan);
        Assert.Same(error, await Assert.ThrowsAsync<InvalidOperationException>(() => observed.WaitAsync(Timeout)));
        Assert.Empty(Unobserved);

        IEnumerable<Event> JoinInsideTryFinally()
        {
            try
            {
                yield return target.Exited;
            }
            finally
            {
                finallyRan = true;
            }
        }
    }

    [Fact]
    public void UnobservedFault_NeverObserved_IsReportedAtDisposeWithThreadAndException()
    {
        ExpectUnobservedFaults = true;
        var thread = Scheduler.Spawn(Throws("nobody listens"), "lonely");
        WaitForAll();
        Assert.True(thread.IsCompleted);
        Assert.Empty(Unobserved);

        Scheduler.Dispose();
        var report = Assert.Single(Unobserved);
        Assert.Same(thread, report.Thread);
        Assert.Equal("nobody listens", report.Exception.Message);
    }

    [Fact]
    public void UnobservedFault_HandleCollected_IsReportedByTheFinalizer()
    {
        ExpectUnobservedFaults = true;
        SpawnAndForget(Scheduler);
        WaitForAll();
        for (var attempt = 0; Unobserved.Count == 0; attempt++)
        {
            Assert.True(attempt < 100, "the fault of a collected thread was never reported");

            // Run a few threads so no worker still holds the ended thread in a register or stack slot.
            for (var i = 0; i < 8; i++)
            {
                Run(Empty());
            }

            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        var report = Assert.Single(Unobserved);
        Assert.Equal("forgotten", report.Thread.Name);

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void SpawnAndForget(Scheduler scheduler) => scheduler.Spawn(ThrowsAtOnce(), "forgotten");

        // Throws on its first step, so it never passes through a worker's run queue, whose slots may keep a
        // reference to a stolen thread until they are reused.
        static IEnumerable<Event> ThrowsAtOnce()
        {
            ThrowFromDeepInside("dropped");
            yield break;
        }
    }

    [Fact]
    public void UnobservedFault_AfterAWaitThatTimedOut_IsStillReported()
    {
        ExpectUnobservedFaults = true;
        var go = new Mailbox<int>();
        var thread = Scheduler.Spawn(FaultWhenTold(), "faults late");

        // The thread cannot end before it is told, so this wait times out: it has seen nothing.
        Assert.False(thread.Wait(TimeSpan.FromMilliseconds(1)));
        go.Send(1);
        WaitUntil(() => thread.IsCompleted, "the thread faults");
        Scheduler.Dispose();
        var report = Assert.Single(Unobserved);
        Assert.Same(thread, report.Thread);
        Assert.Equal("told to fail", report.Exception.Message);

        IEnumerable<Event> FaultWhenTold()
        {
            yield return go.Recv();
            throw new InvalidOperationException("told to fail");
        }
    }

    [Fact]
    public void UnobservedFault_ObservedAfterTheThreadEnded_IsNotReported()
    {
        var thread = Scheduler.Spawn(Throws("seen late"));
        WaitForAll();
        Assert.Throws<InvalidOperationException>(() => thread.Wait(Timeout));
        Scheduler.Dispose();
        Assert.Empty(Unobserved);
    }

    [Fact]
    public async Task Dispose_CalledAgainWhileTheFirstRuns_ReturnsOnlyOnceItHasFinished()
    {
        var inbox = new Mailbox<int>();
        using var inFinally = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var finallyDone = 0;
        var sawFinallyDone = -1;
        Scheduler.Spawn(HoldsDisposalInFinally(), "slow to clean up");
        WaitUntil(() => inbox.IsReceiverParked, "the thread parks");

        // The first disposal runs the thread's finally block, which holds it until released.
        var first = new Thread(() => Scheduler.Dispose());
        first.Start();
        WaitUntil(() => inFinally.IsSet, "the first disposal reaches the finally block");

        var again = Scheduler.DisposeAsync();
        Assert.False(again.IsCompleted, "a second DisposeAsync completed while the first disposal was still running finally blocks");
        var second = new Thread(() =>
        {
            Scheduler.Dispose();
            Volatile.Write(ref sawFinallyDone, Volatile.Read(ref finallyDone));
        });
        second.Start();

        // It blocks, rather than returning while threads are still live.
        WaitUntil(() => (second.ThreadState & ThreadState.WaitSleepJoin) != 0 || !second.IsAlive, "the second Dispose blocks or returns");
        Assert.True(second.IsAlive, "a second Dispose returned while the first was still running finally blocks");
        release.Set();
        Assert.True(second.Join(Timeout));
        Assert.True(first.Join(Timeout));
        Assert.Equal(1, sawFinallyDone);
        await again.AsTask().WaitAsync(Timeout);
        Assert.Equal(0, Scheduler.LiveThreadCount);

        IEnumerable<Event> HoldsDisposalInFinally()
        {
            try
            {
                yield return inbox.Recv();
            }
            finally
            {
                inFinally.Set();

                // Runs on the disposing OS thread, not a worker: holding it is the point of the test.
#pragma warning disable TI0001
                release.Wait(Timeout);
#pragma warning restore TI0001
                Volatile.Write(ref finallyDone, 1);
            }
        }
    }

    [Fact]
    public void Dispose_ParkedThreads_RunFinallyBlocksAndCancelJoiners()
    {
        const int sleepers = 100;
        var inbox = new Mailbox<int>();
        var entered = 0;
        var cleanedUp = 0;
        for (var i = 0; i < sleepers; i++)
        {
            Scheduler.Spawn(ParkInsideTry(Event.Sleep(TimeSpan.FromDays(1))));
        }

        var receiver = Scheduler.Spawn(ParkInsideTry(inbox.Recv()));
        WaitUntil(() => Volatile.Read(ref entered) == sleepers + 1 && inbox.IsReceiverParked, "every thread parks");
        Scheduler.Dispose();

        Assert.Equal(sleepers + 1, cleanedUp);
        Assert.Equal(0, Scheduler.LiveThreadCount);
        Assert.Throws<OperationCanceledException>(() => receiver.Wait(Timeout));

        IEnumerable<Event> ParkInsideTry(Event parkOn)
        {
            try
            {
                Interlocked.Increment(ref entered);
                yield return parkOn;
            }
            finally
            {
                Interlocked.Increment(ref cleanedUp);
            }
        }
    }

    [Fact]
    public void Dispose_FinallyBlockThrows_IsReported()
    {
        ExpectUnobservedFaults = true;
        var inbox = new Mailbox<int>();
        var thread = Scheduler.Spawn(ThrowOnCleanup(), "messy");
        WaitUntil(() => inbox.IsReceiverParked, "the thread parks");
        Scheduler.Dispose();

        var report = Assert.Single(Unobserved);
        Assert.Same(thread, report.Thread);
        Assert.Equal("cleanup failed", report.Exception.Message);

        IEnumerable<Event> ThrowOnCleanup()
        {
            try
            {
                yield return inbox.Recv();
            }
            finally
            {
#pragma warning disable CA2219 // The finally block throws on purpose: that is the behaviour under test.
                throw new InvalidOperationException("cleanup failed");
#pragma warning restore CA2219
            }
        }
    }

    [Fact]
    public void Spawn_AfterDispose_ThrowsObjectDisposed()
    {
        Scheduler.Dispose();
        var error = Assert.Throws<ObjectDisposedException>(() => Scheduler.Spawn(Empty(), "late"));
        Assert.Contains(Scheduler.ToString(), error.Message, StringComparison.Ordinal);
        Assert.Contains("'late'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Spawn_RacingDispose_ThrowsAndLeavesNoThreadBehind()
    {
        using var entered = new ManualResetEventSlim();
        using var gate = new ManualResetEventSlim();
        Exception? spawnError = null;
        var spawner = new Thread(() =>
        {
            try
            {
                Scheduler.Spawn(new SlowToEnumerate(entered, gate));
            }
            catch (ObjectDisposedException error)
            {
                spawnError = error;
            }
        });
        spawner.Start();
        Assert.True(entered.Wait(Timeout));
        Scheduler.Dispose();
        gate.Set();
        Assert.True(spawner.Join(Timeout));

        Assert.IsType<ObjectDisposedException>(spawnError);
        Assert.Equal(0, Scheduler.LiveThreadCount);
        Assert.True(Scheduler.WaitForAll(Timeout));
    }

    [Fact]
    public void Spawn_NullBody_ThrowsArgumentNull()
    {
        Assert.Throws<ArgumentNullException>(() => Scheduler.Spawn(null!));
    }

    [Fact]
    public void YieldNull_FaultsThreadNamingIt()
    {
        var thread = Scheduler.Spawn(YieldsNull(), "careless");
        var error = Assert.Throws<InvalidOperationException>(() => thread.Wait(Timeout));
        Assert.Contains("'careless'", error.Message, StringComparison.Ordinal);
        Assert.Contains("null", error.Message, StringComparison.Ordinal);

        static IEnumerable<Event> YieldsNull()
        {
            yield return null!;
        }
    }

    [Fact]
    public void Exited_OfAnotherScheduler_FaultsThreadNamingEvent()
    {
        using var other = new Scheduler(new SchedulerOptions { WorkerCount = 1, Name = "elsewhere" });
        var gate = new Mailbox<int>();
        var foreign = other.Spawn(WaitThenLog(gate, [], "foreign"), "foreign");
        var thread = Scheduler.Spawn(JoinThenLog(foreign, []), "local");
        var error = Assert.Throws<InvalidOperationException>(() => thread.Wait(Timeout));
        Assert.Contains("'foreign'", error.Message, StringComparison.Ordinal);
        Assert.Contains("another scheduler", error.Message, StringComparison.Ordinal);

        // Thread ids are per scheduler, so each thread is named with its own.
        Assert.Contains($"{thread} of {Scheduler}", error.Message, StringComparison.Ordinal);
        Assert.Contains($"{foreign} belongs to {other}", error.Message, StringComparison.Ordinal);
        Assert.Contains("'elsewhere'", other.ToString(), StringComparison.Ordinal);
        using var third = new Scheduler(1);
        Assert.NotEqual(Scheduler.ToString(), third.ToString());
        gate.Send(0);
        Assert.True(foreign.Wait(Timeout));
    }

    [Fact]
    public void Exited_OwnEvent_FaultsInsteadOfDeadlocking()
    {
        var handle = new Mailbox<GreenThread>();
        var thread = Scheduler.Spawn(JoinSelf(), "narcissus");
        handle.Send(thread);
        var error = Assert.Throws<InvalidOperationException>(() => thread.Wait(Timeout));
        Assert.Contains("cannot join itself", error.Message, StringComparison.Ordinal);

        IEnumerable<Event> JoinSelf()
        {
            var self = handle.Recv();
            yield return self;
            yield return self.Value.Exited;
        }
    }

    [Fact]
    public void Wait_FromInsideGreenThread_FaultsInsteadOfBlockingWorker()
    {
        var other = Scheduler.Spawn(Empty());
        var thread = Scheduler.Spawn(BlockingWait(), "blocker");
        Join(other);
        var error = Assert.Throws<InvalidOperationException>(() => thread.Wait(Timeout));
        Assert.Contains($"GreenThread #{thread.Id} 'blocker' called Wait()", error.Message, StringComparison.Ordinal);

        IEnumerable<Event> BlockingWait()
        {
#pragma warning disable TI0001 // The test checks that Wait on a worker throws instead of blocking it.
            other.Wait();
#pragma warning restore TI0001
            yield break;
        }
    }

    [Fact]
    public async Task WhenAll_CompletesWhenEveryThreadEnded()
    {
        var gate = new Mailbox<int>();
        Scheduler.Spawn(WaitThenLog(gate, [], "a"));
        var all = Scheduler.WhenAll();
        Assert.False(all.IsCompleted);
        gate.Send(0);
        await all.WaitAsync(Timeout);
        Assert.Equal(0, Scheduler.LiveThreadCount);
    }

    [Fact]
    public void GreenThread_ToString_ShowsIdAndName()
    {
        var thread = Run(Empty(), "worker bee");
        Assert.Equal($"GreenThread #{thread.Id} 'worker bee'", thread.ToString());
    }

    [Fact]
    public void Scheduler_InvalidWorkerCount_Throws()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new Scheduler(0));
    }

    private static IEnumerable<Event> Empty()
    {
        yield break;
    }

    /// <summary>A body whose enumerator is made only once the test lets it, to hold Spawn open.</summary>
    private sealed class SlowToEnumerate(ManualResetEventSlim entered, ManualResetEventSlim gate) : IEnumerable<Event>
    {
        public IEnumerator<Event> GetEnumerator()
        {
            entered.Set();
            gate.Wait();
            return Empty().GetEnumerator();
        }

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
    }

    private static IEnumerable<Event> Throws(string message)
    {
        yield return Event.Yield;
        ThrowFromDeepInside(message);
    }

    private static IEnumerable<Event> WaitThenThrow(Mailbox<int> gate)
    {
        yield return gate.Recv();
        ThrowFromDeepInside("target failed");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowFromDeepInside(string message) => throw new InvalidOperationException(message);

    private static IEnumerable<Event> WaitThenLog(Mailbox<int> gate, List<string> log, string entry)
    {
        yield return gate.Recv();
        lock (log)
        {
            log.Add(entry);
        }
    }

    private static IEnumerable<Event> JoinThenLog(GreenThread target, List<string> log)
    {
        yield return target.Exited;
        lock (log)
        {
            log.Add("joined");
        }
    }
}
