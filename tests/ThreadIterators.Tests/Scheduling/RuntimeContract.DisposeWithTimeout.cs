using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// <see cref="Scheduler.Dispose(TimeSpan)"/> under every configuration: it returns nothing once the disposal finished,
/// and otherwise names the threads it could not stop, while the disposal goes on and finishes once they let it.
/// </summary>
public abstract partial class RuntimeContract
{
    [Fact]
    public void DisposeWithTimeout_EverythingStops_ReturnsNoThreads_AndTheSchedulerIsDisposed()
    {
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var finallies = 0;
        var entered = 0;
        for (var i = 0; i < 10; i++)
        {
            scheduler.Spawn(WaitForever(), $"waiter {i}");
        }

        WaitUntil(() => Volatile.Read(ref entered) == 10, "ten threads are in their try blocks");
        Assert.Empty(scheduler.Dispose(Timeout));
        Assert.Equal(10, finallies);
        Assert.Throws<ObjectDisposedException>(() => scheduler.Spawn(WaitForever()));
        Assert.Empty(scheduler.Dispose(TimeSpan.Zero));

        IEnumerable<Event> WaitForever()
        {
            try
            {
                Interlocked.Increment(ref entered);
                yield return Event.Sleep(Event.MaxSleep);
            }
            finally
            {
                Interlocked.Increment(ref finallies);
            }
        }
    }

    [Fact]
    public async Task DisposeWithTimeout_AFinallyBlockThatBlocks_IsNamed_WithTheThreadsBehindIt_AndTheDisposalFinishesOnceItIsReleased()
    {
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        using var gate = new ManualResetEventSlim();
        using var blocking = new ManualResetEventSlim();
        using var entered = new ManualResetEventSlim();
        var stubborn = scheduler.Spawn(BlockInFinally(), "stubborn");
        var others = Enumerable.Range(0, 3).Select(i => scheduler.Spawn(Park(), $"other {i}")).ToArray();
        Assert.True(entered.Wait(Timeout), "the stubborn thread is in its try block");

        // However far the disposal got in 50 ms, the stubborn thread has not ended: it is named, as is any other not
        // disposed yet, and none that has ended.
        var notStopped = scheduler.Dispose(TimeSpan.FromMilliseconds(50));
        Assert.Contains(stubborn, notStopped);
        Assert.All(notStopped, thread => Assert.False(thread.IsCompleted, $"{thread} ended, yet was named"));
        Assert.True(blocking.Wait(Timeout), "the disposal reaches the stubborn finally block");
        var again = scheduler.Dispose(TimeSpan.Zero);
        Assert.Contains(stubborn, again);
        Assert.All(again, thread => Assert.False(thread.IsCompleted, $"{thread} ended, yet was named"));
        Assert.Equal(4 - others.Count(t => t.IsCompleted), again.Count);

        gate.Set();
        Assert.Empty(scheduler.Dispose(Timeout));
        Assert.True(stubborn.IsCompleted);
        Assert.All(others, thread => Assert.True(thread.IsCompleted));
        await scheduler.DisposeAsync().AsTask().WaitAsync(Timeout);

        IEnumerable<Event> BlockInFinally()
        {
            try
            {
                entered.Set();
                yield return Event.Sleep(Event.MaxSleep);
            }
            finally
            {
                blocking.Set();
#pragma warning disable TI0001 // The blocking finally block is the misbehavior under test; it runs on the disposing thread.
                gate.Wait(Timeout);
#pragma warning restore TI0001
            }
        }

        static IEnumerable<Event> Park()
        {
            yield return new Mailbox<int>().Recv();
        }
    }

    [Fact]
    public void DisposeWithTimeout_AThreadThatHoldsItsWorker_IsNamed_AndTheDisposalFinishesOnceItYields()
    {
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        using var running = new ManualResetEventSlim();
        var release = 0;
        var spinner = scheduler.Spawn(Spin(), "spinner");
        Assert.True(running.Wait(Timeout), "the spinner runs");

        // The worker cannot stop while the spinner's turn lasts: the disposal cannot finish, and names it.
        var notStopped = scheduler.Dispose(TimeSpan.FromMilliseconds(20));
        Assert.Equal([spinner], notStopped);
        Assert.False(spinner.IsCompleted);

        Volatile.Write(ref release, 1);
        Assert.Empty(scheduler.Dispose(Timeout));
        Assert.True(spinner.IsCompleted);

        IEnumerable<Event> Spin()
        {
            running.Set();
            var spin = new SpinWait();
            while (Volatile.Read(ref release) == 0)
            {
                spin.SpinOnce(sleep1Threshold: -1);
            }

            yield return Event.Yield;
            yield return Event.Sleep(Event.MaxSleep);
        }
    }

    [Fact]
    public void DisposeWithTimeout_Misused_ThrowsNamingTheScheduler()
    {
        var negative = Assert.Throws<ArgumentOutOfRangeException>(() => Scheduler.Dispose(TimeSpan.FromMilliseconds(-5)));
        Assert.Contains(Scheduler.ToString(), negative.Message, StringComparison.Ordinal);
        var fromInside = new List<string>();
        Run(DisposeOwn(), "self-disposer");
        Assert.Contains("its own scheduler", Assert.Single(fromInside), StringComparison.Ordinal);

        IEnumerable<Event> DisposeOwn()
        {
            fromInside.Add(Assert.Throws<InvalidOperationException>(() => Scheduler.Dispose(Timeout)).Message);
            yield break;
        }
    }
}
