using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    // Tests written as one call run a body from RuntimeContract.CreditWindow.Scenarios.cs at a small size; the stress
    // tier, tests/ThreadIterators.StressTests, runs the same bodies long.

    [Fact]
    public void CreditWindow_TwoProducersOneWindow_NeverMoreThanWindowUnacknowledged_EveryMessageInOrder() => CreditWindowTwoProducersOneWindow(perProducer: 2_000);

    [Fact]
    public void CreditWindow_ProducerParked_OsThreadReleaseWakesIt()
    {
        var credits = new CreditWindow(2, "acks from outside");
        var acquired = 0;
        var producer = Scheduler.Spawn(AcquireThree(), "producer");
        WaitUntil(() => Volatile.Read(ref acquired) == 2 && credits.Available == 0, "the producer takes both credits");
        Assert.False(producer.IsCompleted);
        credits.Release();
        Join(producer);
        Assert.Equal(3, acquired);

        IEnumerable<Event> AcquireThree()
        {
            for (var i = 0; i < 3; i++)
            {
                yield return credits.Acquire();
                Interlocked.Increment(ref acquired);
            }
        }
    }

    [Fact]
    public void CreditWindow_ReleaseBeyondWindow_ThrowsNamingWindow_AndKeepsCount()
    {
        var credits = new CreditWindow(3, "orders");
        Assert.True(credits.TryAcquire());
        Assert.True(credits.TryAcquire());
        Assert.True(credits.TryAcquire());
        Assert.False(credits.TryAcquire());
        credits.Release(2);
        var error = Assert.Throws<InvalidOperationException>(() => credits.Release(2));
        Assert.Contains("'orders'", error.Message, StringComparison.Ordinal);
        Assert.Equal(2, credits.Available);
        var zero = Assert.Throws<ArgumentOutOfRangeException>(() => credits.Release(0));
        Assert.Equal("count", zero.ParamName);
        Assert.Contains("'orders'", zero.Message, StringComparison.Ordinal);
        var empty = Assert.Throws<ArgumentOutOfRangeException>(() => new CreditWindow(0, "acks"));
        Assert.Equal("window", empty.ParamName);
        Assert.Contains("'acks'", empty.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void CreditWindow_ProducerParkedWhenSchedulerDisposed_EndsAndItsCreditGoesToTheNext()
    {
        var credits = new CreditWindow(1, "shared");
        Assert.True(credits.TryAcquire());
        var other = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var stuck = other.Spawn(AcquireOne(), "stuck");
        WaitUntil(() => Probe.WaitingForCredit(credits) == 1, "the producer waits for a credit");
        other.Dispose();
        Assert.Throws<OperationCanceledException>(() => stuck.Wait(Timeout));

        // The disposed producer's place does not swallow the next credit.
        credits.Release();
        Run(AcquireOne());

        IEnumerable<Event> AcquireOne()
        {
            yield return credits.Acquire();
        }
    }
}
