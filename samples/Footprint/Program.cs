using System;
using System.Diagnostics;
using System.Globalization;
using System.Threading;

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

        var footprint = ParkedFootprint.Measure(threads, workers, idleSeconds > 0 ? () => MeasureIdle(idleSeconds) : null);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"threads={threads} workers={workers} heap_bytes={footprint.HeapBytes} bytes_per_parked_thread={footprint.BytesPerParkedThread:F1}"));
        if (!footprint.Ok)
        {
            Console.Error.WriteLine($"wrong result: {footprint.Received} of {threads} threads received their message");
            return 1;
        }

        return 0;
    }

    /// <summary>Leaves the scheduler idle and prints the CPU the whole process used meanwhile.</summary>
    private static void MeasureIdle(int idleSeconds)
    {
        using var process = Process.GetCurrentProcess();
        var cpuBefore = process.TotalProcessorTime;
        var wall = Stopwatch.StartNew();
        Thread.Sleep(TimeSpan.FromSeconds(idleSeconds));
        process.Refresh();
        var cpu = process.TotalProcessorTime - cpuBefore;
        var percentOfOneCore = 100 * cpu.TotalSeconds / wall.Elapsed.TotalSeconds;
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"idle_seconds={wall.Elapsed.TotalSeconds:F1} process_cpu_ms={cpu.TotalMilliseconds:F0} cpu_percent_of_one_core={percentOfOneCore:F2} cpu_percent_of_machine={percentOfOneCore / Environment.ProcessorCount:F2}"));
    }

    private static int Option(string[] args, string name, int fallback)
    {
        var at = Array.IndexOf(args, name);
        return at >= 0 && at + 1 < args.Length ? int.Parse(args[at + 1], CultureInfo.InvariantCulture) : fallback;
    }
}
