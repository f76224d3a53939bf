using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Threading;
using ThreadIterators;

namespace Footprint;

/// <summary>
/// What parked green threads cost: <c>Footprint &lt;threads&gt; [--workers W] [--idle-seconds S]</c> parks that
/// many threads, each on its own empty mailbox, prints the managed heap per thread, then leaves the scheduler idle
/// for S seconds and prints the CPU the whole process used meanwhile. Finally it wakes every thread and checks
/// that each one received its message.
/// </summary>
internal static class Program
{
    private static int Main(string[] args)
    {
        var threads = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1_000_000;
        var workers = Option(args, "--workers", 2);
        var idleSeconds = Option(args, "--idle-seconds", 0);

        using var scheduler = new Scheduler(workers);
        var inboxes = new Mailbox<int>[threads];
        var received = 0L;
        var heapBefore = GC.GetTotalMemory(forceFullCollection: true);
        for (var i = 0; i < threads; i++)
        {
            inboxes[i] = new Mailbox<int>();
            scheduler.Spawn(Receive(inboxes[i]));
        }

        // Wait until every receiver is parked on its empty mailbox.
        while (Interlocked.Read(ref received) == 0 && !AllParked(inboxes))
        {
            Thread.Sleep(10);
        }

        var heapAfter = GC.GetTotalMemory(forceFullCollection: true);
        var perThread = (heapAfter - heapBefore) / (double)threads;
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"threads={threads} workers={workers} heap_bytes={heapAfter - heapBefore} bytes_per_parked_thread={perThread:F1}"));

        if (idleSeconds > 0)
        {
            var process = Process.GetCurrentProcess();
            var cpuBefore = process.TotalProcessorTime;
            var wall = Stopwatch.StartNew();
            Thread.Sleep(TimeSpan.FromSeconds(idleSeconds));
            process.Refresh();
            var cpu = process.TotalProcessorTime - cpuBefore;
            var percentOfOneCore = 100 * cpu.TotalSeconds / wall.Elapsed.TotalSeconds;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"idle_seconds={wall.Elapsed.TotalSeconds:F1} process_cpu_ms={cpu.TotalMilliseconds:F0} cpu_percent_of_one_core={percentOfOneCore:F2} cpu_percent_of_machine={percentOfOneCore / Environment.ProcessorCount:F2}"));
        }

        for (var i = 0; i < threads; i++)
        {
            inboxes[i].Send(1);
        }

        scheduler.WaitForAll();
        GC.KeepAlive(inboxes);
        if (received != threads)
        {
            Console.Error.WriteLine($"wrong result: {received} of {threads} threads received their message");
            return 1;
        }

        return 0;

        IEnumerable<Event> Receive(Mailbox<int> inbox)
        {
            var message = inbox.Recv();
            yield return message;
            Interlocked.Add(ref received, message.Value);
        }
    }

    private static bool AllParked(Mailbox<int>[] inboxes) => Array.TrueForAll(inboxes, m => m.Receiver is not null && !m.Receiver.IsCompleted);

    private static int Option(string[] args, string name, int fallback)
    {
        var at = Array.IndexOf(args, name);
        return at >= 0 && at + 1 < args.Length ? int.Parse(args[at + 1], CultureInfo.InvariantCulture) : fallback;
    }
}
