using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Threading;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// <c>stranded [--workers W] [--idle-ms I] [--tries T]</c>: how late a thread stranded in a worker's run-next slot runs
/// when the scheduler was idle just before. A waker green thread, woken by a send from this OS thread after every
/// worker has idled for I ms (50), wakes a second green thread (which goes to the waker's run-next slot) and then
/// blocks its worker until that thread has run, which only the watchdog's rescue can bring about. Measured: the time
/// from the waker's send to the woken thread's turn, T times (50), on W workers (2, at least 2). Prints one JSON line
/// with the median, the 90th percentile and the maximum.
/// </summary>
internal static class StrandedCommand
{
    private const string Usage = "usage: stranded [--workers W] [--idle-ms I] [--tries T]";

    public static int Execute(string[] args)
    {
        var workers = 2;
        var idleMs = 50;
        var tries = 50;
        for (var i = 1; i < args.Length; i += 2)
        {
            if (i + 1 >= args.Length || !int.TryParse(args[i + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) || value < 0)
            {
                Console.Error.WriteLine($"{args[i]} needs a whole number; {Usage}");
                return 2;
            }

            switch (args[i])
            {
                case "--workers" when value >= 2:
                    workers = value;
                    break;
                case "--idle-ms":
                    idleMs = value;
                    break;
                case "--tries" when value >= 1:
                    tries = value;
                    break;
                default:
                    Console.Error.WriteLine($"bad argument '{args[i]} {args[i + 1]}' (at least 2 workers, 1 try); {Usage}");
                    return 2;
            }
        }

        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = workers });
        var wakerInbox = new Mailbox<int>("waker");
        var wokenInbox = new Mailbox<int>("woken");
        using var ran = new ManualResetEventSlim(false);
        long wokeAt = 0;
        long ranAt = 0;
        scheduler.Spawn(Woken(), "woken");
        scheduler.Spawn(Waker(), "waker");
        var latencies = new List<double>();
        for (var attempt = 0; attempt < tries; attempt++)
        {
            var settled = Stopwatch.StartNew();
            while (!wakerInbox.IsReceiverParked || !wokenInbox.IsReceiverParked)
            {
                if (settled.Elapsed > TimeSpan.FromMinutes(1))
                {
                    Console.Error.WriteLine("the two green threads did not park within a minute");
                    return 1;
                }

                Thread.Sleep(1);
            }

            // Both parked: the workers run nothing from here on, and the watchdog slows down as it sees them idle.
            Thread.Sleep(idleMs);
            ran.Reset();
            wakerInbox.Send(attempt);
            if (!ran.Wait(TimeSpan.FromMinutes(1)))
            {
                Console.Error.WriteLine($"try {attempt + 1}: the woken thread did not run within a minute");
                return 1;
            }

            latencies.Add((Interlocked.Read(ref ranAt) - Interlocked.Read(ref wokeAt)) * 1000.0 / Stopwatch.Frequency);
        }

        wakerInbox.Complete();
        wokenInbox.Complete();
        latencies.Sort();
        JsonLine.Print(json =>
        {
            json.WriteString("workload", "stranded");
            json.WriteNumber("workers", workers);
            json.WriteNumber("idle_ms", idleMs);
            json.WriteNumber("tries", tries);
            json.WriteNumber("median_ms", Math.Round(latencies[latencies.Count / 2], 2));
            json.WriteNumber("p90_ms", Math.Round(latencies[latencies.Count * 9 / 10], 2));
            json.WriteNumber("max_ms", Math.Round(latencies[^1], 2));
        });
        return 0;

        IEnumerable<Event> Waker()
        {
            while (true)
            {
                var message = wakerInbox.Recv();
                yield return message;
                if (message.IsCompleted)
                {
                    yield break;
                }

                Interlocked.Exchange(ref wokeAt, Stopwatch.GetTimestamp());
                wokenInbox.Send(message.Value);

                // The woken thread is in this worker's run-next slot; blocking here strands it there until the watchdog
                // moves it to another worker.
#pragma warning disable TI0001 // Blocking the worker is the situation measured.
                if (!ran.Wait(TimeSpan.FromMinutes(1)))
#pragma warning restore TI0001
                {
                    throw new TimeoutException("the woken thread never ran while its waker blocked its worker");
                }
            }
        }

        IEnumerable<Event> Woken()
        {
            while (true)
            {
                var message = wokenInbox.Recv();
                yield return message;
                if (message.IsCompleted)
                {
                    yield break;
                }

                Interlocked.Exchange(ref ranAt, Stopwatch.GetTimestamp());
                ran.Set();
            }
        }
    }
}
