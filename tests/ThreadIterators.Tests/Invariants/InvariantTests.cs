#if DEBUG
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// The library's invariants are live in DEBUG builds: each test here breaks one on purpose and expects its assert.
/// Compiled only in DEBUG, the build whose library has the asserts (CI runs the library's tests in both).
/// </summary>
public sealed class InvariantTests
{
    [Fact]
    public void Ready_ThreadAlreadyQueued_AssertFires()
    {
        using var scheduler = new Scheduler(workerCount: 1);
        using var hold = new ManualResetEventSlim();
        using var holding = new ManualResetEventSlim();

        // Blocks the only worker, so the victim below stays queued, never run, for as long as the test needs.
        var blocker = scheduler.Spawn(Block(holding, hold), "blocker");
        Assert.True(holding.Wait(Waiting.Timeout), "The blocker did not start.");
        var victim = scheduler.Spawn(Nothing(), "victim");

        // A second wake-up of a queued thread: the double wake the park/wake protocol must never make.
        var failure = Assert.Throws<InvariantFailedException>(() => scheduler.Ready(victim));
        Assert.Contains("'victim' was made ready by a wake-up while Queued", failure.Message, System.StringComparison.Ordinal);

        hold.Set();
        Assert.True(blocker.Wait(Waiting.Timeout), "The blocker did not end.");
        Assert.True(victim.Wait(Waiting.Timeout), "The victim did not end.");
    }

    private static IEnumerable<Event> Block(ManualResetEventSlim holding, ManualResetEventSlim hold)
    {
        holding.Set();
#pragma warning disable TI0001 // Blocks the only worker on purpose, so the victim stays queued (see the test).
        hold.Wait();
#pragma warning restore TI0001
        yield break;
    }

    private static IEnumerable<Event> Nothing()
    {
        yield break;
    }
}
#endif
