using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace ThreadIterators.Hosting;

/// <summary>
/// The health of the host's scheduler. The steps, each written once, here:
/// <list type="number">
/// <item><b>Responsive.</b> A probe green thread is spawned and must end within the long-turn threshold: otherwise no
/// worker is free to run a new thread (unhealthy).</item>
/// <item><b>No worker stuck.</b> Each long turn the scheduler reported whose thread the wait-for graph still shows
/// running is a worker stuck past the threshold (unhealthy). One whose thread is no longer running is forgotten. The
/// graph is read only while a long turn is on record.</item>
/// </list>
/// </summary>
internal sealed class ThreadIteratorsHealthCheck(Scheduler scheduler, ThreadIteratorsHostOptions options, LongTurns longTurns) : IHealthCheck
{
    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var data = new Dictionary<string, object> { ["workers"] = scheduler.WorkerCount, ["deadLetters"] = scheduler.DeadLetterCount };

        // Step 1.
        Task probe;
        try
        {
            probe = scheduler.Spawn(Probe(), "health probe").AsTask();
        }
        catch (ObjectDisposedException exception)
        {
            return HealthCheckResult.Unhealthy($"{scheduler} is disposed: it runs no green thread.", exception, data);
        }

        if (await Task.WhenAny(probe, Task.Delay(options.LongTurnThreshold, cancellationToken)).ConfigureAwait(false) != probe)
        {
            return HealthCheckResult.Unhealthy($"No worker of {scheduler} ran a new green thread within {options.LongTurnThreshold}: every worker is busy or stuck.", data: data);
        }

        // Step 2.
        var turns = longTurns.Snapshot();
        if (turns.Count > 0)
        {
            var graph = scheduler.GetWaitGraph();
            foreach (var (worker, thread, duration, at) in turns)
            {
                if (graph.Find(thread) is { IsRunning: true })
                {
                    return HealthCheckResult.Unhealthy(
                        $"Worker {worker} of {scheduler} has been held by {thread} in one turn since at least {at:O} ({duration} then), past the long-turn threshold of {options.LongTurnThreshold}: it blocks its OS thread or computes without yielding.",
                        data: data);
                }

                longTurns.Over(worker, thread, at);
            }
        }

        return HealthCheckResult.Healthy($"{scheduler}: {scheduler.WorkerCount} workers, responsive, none held past {options.LongTurnThreshold}.", data);
    }

    private static IEnumerable<Event> Probe()
    {
        yield break;
    }
}
