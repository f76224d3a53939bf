using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using Microsoft.Extensions.Time.Testing;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Base of every contract test class: each test gets a fresh scheduler with <see cref="WorkerCount"/> workers and
/// <see cref="Policy"/>, and fails if a green thread faulted without anyone observing it, unless the test said it
/// expects that.
/// </summary>
public abstract class SchedulerContract : IDisposable
{
    /// <summary>How long any wait in a test may take before the test fails; generous, since a hang is the failure.</summary>
    protected static readonly TimeSpan Timeout = Waiting.Timeout;

    private readonly ConcurrentQueue<UnobservedFaultEventArgs> _unobserved = new();

    /// <summary>Schedulers made by <see cref="CreateSchedulerWithFakeTime"/>, disposed with the test.</summary>
    private readonly ConcurrentQueue<Scheduler> _extraSchedulers = new();

    protected SchedulerContract()
    {
        Scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        Scheduler.UnobservedFault += (_, e) => _unobserved.Enqueue(e);
    }

    /// <summary>Gets the number of workers this configuration runs with.</summary>
    protected abstract int WorkerCount { get; }

    /// <summary>Gets the scheduling policy this configuration runs with.</summary>
    protected abstract SchedulingPolicy Policy { get; }

    protected Scheduler Scheduler { get; }

    /// <summary>Gets the unobserved faults reported so far.</summary>
    protected IReadOnlyCollection<UnobservedFaultEventArgs> Unobserved => _unobserved;

    /// <summary>Set by a test that provokes unobserved faults on purpose.</summary>
    protected bool ExpectUnobservedFaults { get; set; }

    public void Dispose()
    {
        Scheduler.Dispose();
        foreach (var scheduler in _extraSchedulers)
        {
            scheduler.Dispose();
        }

        GC.SuppressFinalize(this);
        if (!ExpectUnobservedFaults && !_unobserved.IsEmpty)
        {
            _unobserved.TryPeek(out var first);
            Assert.Fail($"{_unobserved.Count} unobserved fault(s); the first in {first!.Thread}: {first.Exception}");
        }
    }

    /// <summary>
    /// Makes a scheduler of this configuration whose time is <paramref name="clock"/>, a FakeTimeProvider that stands
    /// still until the test calls <c>clock.Advance</c>; disposed, and checked for unobserved faults, with the test.
    /// Advancing fires every deadline it passes (sleeps, timeouts) on the calling thread before it returns, provided
    /// the timer queue is not being armed meanwhile: after the green threads have parked, wait for
    /// <see cref="Probe.TimersSettled"/> (it counts the pending deadlines and waits out an arming or a firing), then advance.
    /// </summary>
    protected Scheduler CreateSchedulerWithFakeTime(out FakeTimeProvider clock)
    {
        clock = new FakeTimeProvider();
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, TimeProvider = clock });
        scheduler.UnobservedFault += (_, e) => _unobserved.Enqueue(e);
        _extraSchedulers.Enqueue(scheduler);
        return scheduler;
    }

    /// <summary>Spawns a thread and waits for it, failing loudly on timeout.</summary>
    protected GreenThread Run(IEnumerable<Event> body, string? name = null)
    {
        var thread = Scheduler.Spawn(body, name);
        Join(thread);
        return thread;
    }

    /// <summary>Waits for a thread, rethrowing its fault, failing loudly on timeout with the wait-for graph.</summary>
    protected static void Join(GreenThread thread) => thread.WaitOrThrow(Timeout);

    /// <summary>Waits for every green thread of the scheduler, failing loudly on timeout with the wait-for graph.</summary>
    protected void WaitForAll() => Scheduler.WaitForAllOrThrow(Timeout);

    /// <summary>Waits until a condition holds, failing loudly on timeout. For conditions no event signals.</summary>
    protected static void WaitUntil(Func<bool> condition, string what) => Waiting.Until(condition, what);
}
