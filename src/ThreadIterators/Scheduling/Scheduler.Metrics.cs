using System;
using System.Collections.Generic;
using System.Diagnostics.Tracing;
using System.Threading;

namespace ThreadIterators;

// What the ThreadIterators meter reads of a scheduler (RuntimeMetrics): its workers' counts summed, and its own. Read
// on the collecting thread, only when a listener collects.
public sealed partial class Scheduler
{
    /// <summary>Gets the counts kept apart from the workers'.</summary>
    internal SchedulerCounters Counts { get; } = new();

    /// <summary>Gets the tag naming this scheduler in the meter's measurements.</summary>
    internal KeyValuePair<string, object?> MetricTag { get; private set; }

    /// <summary>Sums one of the workers' counts.</summary>
    internal long SumOfWorkers(Func<Worker, long> read)
    {
        long sum = 0;
        foreach (var worker in Workers)
        {
            sum += read(worker);
        }

        return sum;
    }

    /// <summary>Gets how many threads have ended with <paramref name="outcome"/>: on the workers, and by the disposal.</summary>
    internal long EndedCount(ThreadOutcome outcome) => outcome switch
    {
        ThreadOutcome.Completed => SumOfWorkers(static w => Volatile.Read(ref w.Counters.Completed)) + Volatile.Read(ref Counts.Completed),
        ThreadOutcome.Faulted => SumOfWorkers(static w => Volatile.Read(ref w.Counters.Faulted)) + Volatile.Read(ref Counts.Faulted),
        _ => SumOfWorkers(static w => Volatile.Read(ref w.Counters.Canceled)) + Volatile.Read(ref Counts.Canceled),
    };

    /// <summary>Starts this scheduler's measurements; the end of the constructor.</summary>
    private void StartMetrics()
    {
        MetricTag = new(RuntimeMetrics.SchedulerTag, Name is null ? $"#{Number}" : $"{Name}#{Number}");
        RuntimeMetrics.Register(this);
        if (ThreadIteratorsEventSource.Log.IsEnabled(EventLevel.Informational, ThreadIteratorsEventSource.Keywords.Scheduler))
        {
            ThreadIteratorsEventSource.Log.SchedulerStart(ToString(), Number);
        }
    }
}
