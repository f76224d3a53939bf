using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Threading;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// <c>burst [--workers W] [--threads N] [--load hub|yield] [--clients C] [--runs R]</c>: how long a burst of outside
/// wake-ups takes to be served while the workers are busy with local work: a hub green thread that sends to C clients
/// (1000) in rotation without end (hub), or C threads that yield without end (yield), either of which keeps the run
/// queues full. N parked threads (2000) are then woken at once, one send each from this OS thread, and the time from the
/// first send to the last woken thread's turn is measured, R times (5), each with new parked threads. Prints one JSON
/// line a run and one with the median.
/// </summary>
internal static class BurstCommand
{
    private const string Usage = "usage: burst [--workers W] [--threads N] [--load hub|yield] [--clients C] [--runs R]";

    public static int Execute(string[] args)
    {
        var workers = 1;
        var threads = 2_000;
        var clients = 1_000;
        var runs = 5;
        var load = "hub";
        for (var i = 1; i < args.Length; i += 2)
        {
            if (args[i] == "--load" && i + 1 < args.Length && args[i + 1] is "hub" or "yield")
            {
                load = args[i + 1];
                continue;
            }

            if (i + 1 >= args.Length || !int.TryParse(args[i + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) || value < 1)
            {
                Console.Error.WriteLine($"{args[i]} needs a positive whole number; {Usage}");
                return 2;
            }

            switch (args[i])
            {
                case "--workers":
                    workers = value;
                    break;
                case "--threads":
                    threads = value;
                    break;
                case "--clients":
                    clients = value;
                    break;
                case "--runs":
                    runs = value;
                    break;
                default:
                    Console.Error.WriteLine($"unknown argument '{args[i]}'; {Usage}");
                    return 2;
            }
        }

        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = workers });
        var stop = 0;
        long hubSends = 0;
        var inboxes = Enumerable.Range(0, clients).Select(i => new Mailbox<int>($"client {i}")).ToArray();
        if (load == "hub")
        {
            foreach (var inbox in inboxes)
            {
                scheduler.Spawn(Client(inbox));
            }

            scheduler.Spawn(Hub(), "hub");
        }
        else
        {
            scheduler.Spawn(SpawnYielders(), "spawner");
        }
        var times = new List<double>();
        for (var run = 0; run < runs; run++)
        {
            var burst = Enumerable.Range(0, threads).Select(i => new Mailbox<int>($"burst {i}")).ToArray();
            var ran = 0;
            long lastRan = 0;
            using var allRan = new ManualResetEventSlim();
            foreach (var inbox in burst)
            {
                scheduler.Spawn(Woken(inbox));
            }

            var settled = Stopwatch.StartNew();
            while (!burst.All(inbox => inbox.IsReceiverParked))
            {
                if (settled.Elapsed > TimeSpan.FromMinutes(1))
                {
                    Console.Error.WriteLine("the woken threads did not all park within a minute");
                    return 1;
                }

                Thread.Sleep(1);
            }

            var sendsBefore = Interlocked.Read(ref hubSends);
            Thread.Sleep(50);
            if (Interlocked.Read(ref hubSends) == sendsBefore)
            {
                Console.Error.WriteLine("the hub is not sending: the load is not running");
                return 1;
            }

            var start = Stopwatch.GetTimestamp();
            foreach (var inbox in burst)
            {
                inbox.Send(1);
            }

            var sent = Stopwatch.GetTimestamp();
            if (!allRan.Wait(TimeSpan.FromMinutes(1)))
            {
                Console.Error.WriteLine($"only {Volatile.Read(ref ran)} of {threads} woken threads ran within a minute");
                return 1;
            }

            var lastMs = (Interlocked.Read(ref lastRan) - start) * 1000.0 / Stopwatch.Frequency;
            times.Add(lastMs);
            var sendMs = (sent - start) * 1000.0 / Stopwatch.Frequency;
            JsonLine.Print(json =>
            {
                json.WriteString("workload", "burst");
                json.WriteNumber("workers", workers);
                json.WriteNumber("threads", threads);
                json.WriteString("load", load);
                json.WriteNumber("clients", clients);
                json.WriteNumber("run", run + 1);
                json.WriteNumber("burst_sent_ms", Math.Round(sendMs, 2));
                json.WriteNumber("last_ran_ms", Math.Round(lastMs, 2));
            });

            IEnumerable<Event> Woken(Mailbox<int> inbox)
            {
                yield return inbox.Recv();
                if (Interlocked.Increment(ref ran) == threads)
                {
                    Interlocked.Exchange(ref lastRan, Stopwatch.GetTimestamp());
                    allRan.Set();
                }
            }
        }

        Volatile.Write(ref stop, 1);
        times.Sort();
        JsonLine.Print(json =>
        {
            json.WriteString("workload", "burst");
            json.WriteNumber("workers", workers);
            json.WriteNumber("threads", threads);
            json.WriteString("load", load);
            json.WriteNumber("clients", clients);
            json.WriteString("run", "median");
            json.WriteNumber("last_ran_ms", Math.Round(times[times.Count / 2], 2));
        });
        return 0;

        IEnumerable<Event> Hub()
        {
            var next = 0;
            while (Volatile.Read(ref stop) == 0)
            {
                inboxes[next].Send(next);
                next = (next + 1) % inboxes.Length;
                Interlocked.Increment(ref hubSends);
                if (next == 0)
                {
                    yield return Event.Yield;
                }
            }

            foreach (var inbox in inboxes)
            {
                inbox.Complete();
            }
        }

        // Spawned by a green thread, so they start in its worker's run queue, not as outside work.
        IEnumerable<Event> SpawnYielders()
        {
            for (var i = 0; i < clients; i++)
            {
                scheduler.Spawn(Yielder());
            }

            yield break;
        }

        IEnumerable<Event> Yielder()
        {
            while (Volatile.Read(ref stop) == 0)
            {
                Interlocked.Increment(ref hubSends);
                yield return Event.Yield;
            }
        }

        static IEnumerable<Event> Client(Mailbox<int> inbox)
        {
            while (true)
            {
                var message = inbox.Recv();
                yield return message;
                if (message.IsCompleted)
                {
                    yield break;
                }
            }
        }
    }
}
