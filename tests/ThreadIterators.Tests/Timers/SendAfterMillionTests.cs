using System;
using Microsoft.Extensions.Time.Testing;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// A million sends pending at once fit well under 200 MB, handles included, and each is sent or cancelled exactly.
/// Counts memory, so it runs alone, once (the scheduler's configuration does not matter to the timer queue); the
/// benchmark records the figure (docs/timers.md).
/// </summary>
[Collection(MeasurementsRunAlone.Name)]
public sealed class SendAfterMillionTests
{
    [Fact]
    public void OneMillionSendsPending_HalfCancelled_TheOtherHalfArrive_InWellUnder200MB()
    {
        const int count = 1_000_000;
        var clock = new FakeTimeProvider();
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = 1, TimeProvider = clock });
        var inbox = new Mailbox<int>("a million");
        var before = GC.GetTotalMemory(forceFullCollection: true);
        var sends = new IScheduledSend[count];
        for (var i = 0; i < count; i++)
        {
            sends[i] = scheduler.SendAfter(inbox, i, TimeSpan.FromTicks(1 + ((i * 7919L) % 1000)));
        }

        var pendingBytes = GC.GetTotalMemory(forceFullCollection: true) - before;
        Assert.Equal(count, Probe.PendingTimers(scheduler));
        Assert.True(pendingBytes < 200L * 1024 * 1024, $"a million pending sends took {pendingBytes / (1024 * 1024)} MB");

        for (var i = 0; i < count; i += 2)
        {
            Assert.True(sends[i].Cancel());
        }

        Assert.True(Probe.TimersSettled(scheduler, count / 2));
        clock.Advance(TimeSpan.FromTicks(1000));
        Assert.Equal(0, Probe.PendingTimers(scheduler));
        Assert.Equal(count / 2, inbox.Count);
        for (var i = 0; i < count; i++)
        {
            if (sends[i].IsSent != (i % 2 == 1) || sends[i].IsCanceled != (i % 2 == 0))
            {
                Assert.Fail($"send {i}: {sends[i]}");
            }
        }
    }
}
