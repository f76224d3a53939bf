using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Reflection;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The <c>ThreadIterators</c> meter: what every live scheduler has done, for <c>dotnet-counters</c>, OpenTelemetry or
/// any <see cref="MeterListener"/>. Every instrument is observable: nothing is recorded as work happens, only counts
/// kept anyway (or kept with a plain add, <see cref="WorkerCounters"/>) are read when a listener collects, so an
/// unlistened meter costs nothing and a listened one costs its collections.
/// </summary>
/// <remarks>
/// Each measurement carries the tag <see cref="SchedulerTag"/>: the scheduler's name and number (<c>jobs#3</c>, or
/// <c>#3</c> unnamed), and <see cref="OutsideTag"/> for the work of OS threads that are no worker. A scheduler is
/// measured from its construction to the end of its disposal. docs/operations.md lists the instruments.
/// </remarks>
internal static class RuntimeMetrics
{
    /// <summary>The meter's name.</summary>
    internal const string MeterName = "ThreadIterators";

    /// <summary>The tag naming the scheduler a measurement is of.</summary>
    internal const string SchedulerTag = "scheduler";

    /// <summary>The scheduler tag of the work done on OS threads that are no scheduler's worker (<see cref="OutsideCounters"/>).</summary>
    internal const string OutsideTag = "outside";

    private static readonly object s_gate = new();

    private static readonly KeyValuePair<string, object?>[] s_outside = [new(SchedulerTag, OutsideTag)];

    private static readonly ThreadOutcome[] s_endOutcomes = [ThreadOutcome.Completed, ThreadOutcome.Faulted, ThreadOutcome.Canceled];

    /// <summary>The outside messages-sent value last reported (see <see cref="SentMeasurements"/>).</summary>
    private static long s_outsideSentReported;

    /// <summary>The schedulers measured, replaced whole on every change so a collection reads it without the lock.</summary>
    private static Scheduler[] s_schedulers = [];

    /// <summary>The meter; made with the first scheduler, and kept for the process.</summary>
    private static readonly Meter s_meter = CreateMeter();

    /// <summary>Starts measuring a new scheduler.</summary>
    internal static void Register(Scheduler scheduler)
    {
        _ = s_meter;
        lock (s_gate)
        {
            s_schedulers = [.. s_schedulers, scheduler];
        }
    }

    /// <summary>Stops measuring a disposed scheduler.</summary>
    internal static void Unregister(Scheduler scheduler)
    {
        lock (s_gate)
        {
            var index = Array.IndexOf(s_schedulers, scheduler);
            if (index >= 0)
            {
                var remaining = new Scheduler[s_schedulers.Length - 1];
                Array.Copy(s_schedulers, remaining, index);
                Array.Copy(s_schedulers, index + 1, remaining, index, remaining.Length - index);
                s_schedulers = remaining;
            }
        }
    }

    private static Meter CreateMeter()
    {
        var assembly = typeof(RuntimeMetrics).Assembly;
        var version = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? assembly.GetName().Version?.ToString();
        var meter = new Meter(MeterName, version);

        meter.CreateObservableUpDownCounter("threaditerators.threads.live", () => PerScheduler(static s => s.LiveThreadCount), "{thread}", "Green threads spawned and not yet ended.");
        meter.CreateObservableCounter("threaditerators.threads.spawned", () => PerScheduler(static s => s.SumOfWorkers(static w => Volatile.Read(ref w.Counters.Spawned)) + Volatile.Read(ref s.Counts.Spawned)), "{thread}", "Green threads spawned.");
        meter.CreateObservableCounter("threaditerators.threads.ended", Ended, "{thread}", "Green threads ended, by outcome: completed, faulted, or canceled (stopped, or by the scheduler's disposal).");
        meter.CreateObservableCounter("threaditerators.messages.sent", SentMeasurements, "{message}", "Messages put into mailboxes, counted on the sender's scheduler.");
        meter.CreateObservableCounter("threaditerators.mailbox.waits", () => PerScheduler(static s => s.SumOfWorkers(static w => Volatile.Read(ref w.Counters.MailboxWaits)), static o => Volatile.Read(ref o.MailboxWaits)), "{wait}", "Receives that found their mailbox empty and parked.");
        meter.CreateObservableCounter("threaditerators.mailbox.wakeups", () => PerScheduler(static s => s.SumOfWorkers(static w => Volatile.Read(ref w.Counters.WakeUps)), static o => Volatile.Read(ref o.WakeUps)), "{wakeup}", "Waiting receives resumed (by a message, the mailbox's completion, a timeout or a stop); a choice's mailbox branch or an async reader: woken by a send.");
        meter.CreateObservableCounter("threaditerators.worker.steals", () => PerScheduler(static s => s.SumOfWorkers(static w => Volatile.Read(ref w.Counters.Steals)) + Volatile.Read(ref s.Counts.Steals)), "{steal}", "Runnable threads taken from another worker's queues by an idle worker or the watchdog.");
        meter.CreateObservableCounter("threaditerators.worker.parks", () => PerScheduler(static s => s.SumOfWorkers(static w => Volatile.Read(ref w.Counters.Parks))), "{park}", "Times an idle worker found nothing to run and parked its OS thread.");
        meter.CreateObservableCounter("threaditerators.supervisor.restarts", () => PerScheduler(static s => Volatile.Read(ref s.Counts.Restarts)), "{restart}", "Restarts made by supervisors running on the scheduler (a group restart counts once).");
        meter.CreateObservableCounter("threaditerators.supervisor.give_ups", () => PerScheduler(static s => Volatile.Read(ref s.Counts.GiveUps)), "{supervisor}", "Supervisors that exceeded their restart intensity and gave up.");
        meter.CreateObservableCounter("threaditerators.dead_letters", DeadLetters, "{message}", "Messages that reached no receiver, by reason.");
        meter.CreateObservableCounter("threaditerators.watchdog.reports", () => PerScheduler(static s => Volatile.Read(ref s.Counts.WatchdogReports)), "{report}", "Long turns the watchdog reported: a green thread that held its worker without waiting.");
        return meter;
    }

    /// <summary>One measurement per scheduler, and one of the work outside any worker when <paramref name="outside"/> is given.</summary>
    private static List<Measurement<long>> PerScheduler(Func<Scheduler, long> read, Func<OutsideCounters, long>? outside = null)
    {
        var schedulers = s_schedulers;
        var measurements = new List<Measurement<long>>(schedulers.Length + 1);
        foreach (var scheduler in schedulers)
        {
            measurements.Add(new Measurement<long>(read(scheduler), scheduler.MetricTag));
        }

        if (outside is not null)
        {
            measurements.Add(new Measurement<long>(OutsideCounters.Sum(outside), s_outside));
        }

        return measurements;
    }

    /// <summary>
    /// Messages sent. A send is counted as it starts and taken back if the mailbox refuses it, so a collection in
    /// between would see one too many and the next one fewer; a counter must not go down, so each reading is at least
    /// the last one reported.
    /// </summary>
    private static List<Measurement<long>> SentMeasurements()
    {
        var measurements = PerScheduler(static s => NotBelow(ref s.Counts.SentReported, s.SumOfWorkers(static w => Volatile.Read(ref w.Counters.Sent))));
        measurements.Add(new Measurement<long>(NotBelow(ref s_outsideSentReported, OutsideCounters.Sum(static o => Volatile.Read(ref o.Sent))), s_outside));
        return measurements;
    }

    /// <summary>Returns the larger of <paramref name="now"/> and the last value reported, and keeps it as the last. Any collecting thread.</summary>
    private static long NotBelow(ref long reported, long now)
    {
        var last = Volatile.Read(ref reported);
        while (now > last)
        {
            var seen = Interlocked.CompareExchange(ref reported, now, last);
            if (seen == last)
            {
                return now;
            }

            last = seen;
        }

        return last;
    }

    private static List<Measurement<long>> Ended()
    {
        var schedulers = s_schedulers;
        var measurements = new List<Measurement<long>>(schedulers.Length * s_endOutcomes.Length);
        foreach (var scheduler in schedulers)
        {
            foreach (var outcome in s_endOutcomes)
            {
                measurements.Add(new Measurement<long>(scheduler.EndedCount(outcome), scheduler.MetricTag, new("outcome", OutcomeName(outcome))));
            }
        }

        return measurements;
    }

    private static List<Measurement<long>> DeadLetters()
    {
        var schedulers = s_schedulers;
        var reasons = Enum.GetValues<DeadLetterReason>();
        var measurements = new List<Measurement<long>>(schedulers.Length * reasons.Length);
        foreach (var scheduler in schedulers)
        {
            foreach (var reason in reasons)
            {
                measurements.Add(new Measurement<long>(scheduler.DeadLetterCountOf(reason), scheduler.MetricTag, new("reason", reason.ToString())));
            }
        }

        return measurements;
    }

    private static string OutcomeName(ThreadOutcome outcome) => outcome switch
    {
        ThreadOutcome.Completed => "completed",
        ThreadOutcome.Faulted => "faulted",
        _ => "canceled",
    };
}
