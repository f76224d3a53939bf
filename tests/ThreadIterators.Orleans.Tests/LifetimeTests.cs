using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;

namespace ThreadIterators.Orleans.Tests;

/// <summary>A process's life in the cluster: the name freed at its end, taken again, and the silo's stop.</summary>
[Collection(nameof(SharedCluster))]
public sealed class LifetimeTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AProcessThatEnded_LeavesItsName_ToASpawnOnEitherSilo()
    {
        var name = $"again/{Guid.NewGuid():N}";
        for (var round = 0; round < 10; round++)
        {
            var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            IEnumerable<Event> Once(Mailbox<int> inbox)
            {
                yield return inbox.Recv();
                ended.TrySetResult();
            }

            var process = await fixture.Processes(round % 2).SpawnAsync<int>(name, Once);
            process.Send(round);
            await ended.Task.WaitAsync(Generous);
        }
    }

    [Fact]
    public async Task ASendAfterAProcessOfAKindEnded_StartsTheNext_AndIsNotADeadLetter()
    {
        var name = $"count/{Guid.NewGuid():N}";
        var record = ClusterFixture.Counted.GetOrAdd(name, _ => new CountedProcess());
        var target = fixture.Second.Get<long>(name);
        target.Send(1);
        target.Send(-1);
        await record.Ended.Task.WaitAsync(Generous);

        // Sent after the end: the activation may still hold the ended process, be going away, or be gone.
        target.Send(2);
        target.Send(-1);
        await WaitUntil(() => record.Starts.Count == 2 && record.Messages.Count == 2);
        Assert.Equal([1L, 2L], record.Messages.ToArray());
    }

    [Fact]
    public async Task StoppingASilo_StopsItsProcesses_AndTheirFinallyBlocksRun()
    {
        var silo = await fixture.Cluster.StartAdditionalSiloAsync();
        var processes = silo.ServiceProvider.GetRequiredService<ClusterProcesses>();
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var cleaned = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Holder(Mailbox<int> inbox)
        {
            try
            {
                started.TrySetResult();
                yield return inbox.Recv();
            }
            finally
            {
                cleaned.TrySetResult();
            }
        }

        var process = await processes.SpawnAsync<int>($"held/{Guid.NewGuid():N}", Holder);
        await started.Task.WaitAsync(Generous);
        await fixture.Cluster.StopSiloAsync(silo);
        Assert.True(cleaned.Task.IsCompleted, $"{process} did not run its finally block as its silo stopped.");
        Assert.Equal(0, processes.Scheduler.LiveThreadCount);
    }

    internal static async Task WaitUntil(Func<bool> condition)
    {
        var deadline = DateTime.UtcNow + Generous;
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                Assert.Fail("The condition did not hold within the generous timeout.");
            }

            await Task.Delay(5);
        }
    }
}
