using System;
using System.Diagnostics;
using System.Globalization;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// <c>flood [--m MESSAGES] [--capacity C] [--workers W] [--impl threaditerators|tasks]</c>: one producer floods one
/// consumer through a mailbox of capacity C (0: unbounded) and the run reports, as one JSON line, the time, whether
/// every message arrived in order, and how far the managed heap grew. Exits with 1 if a message was missing or out of
/// order, or if a bounded run's heap grew by 50 MB or more.
/// </summary>
internal static class FloodCommand
{
    /// <summary>The most a bounded flood may grow the heap: the target of the bounded-mailbox work.</summary>
    public const long HeapGrowthLimit = 50L * 1024 * 1024;

    private const string Usage = "usage: flood [--m MESSAGES] [--capacity C (0: unbounded)] [--workers W] [--impl threaditerators|tasks]";

    public static int Execute(string[] args)
    {
        long messages = 100_000_000;
        var capacity = 1000;
        var workers = 2;
        var implementation = Implementation.GreenThreads;
        for (var i = 1; i < args.Length; i += 2)
        {
            if (i + 1 >= args.Length)
            {
                Console.Error.WriteLine($"{args[i]} needs a value.\n{Usage}");
                return 2;
            }

            var text = args[i + 1];
            var ok = long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) && value >= 0;
            switch (args[i])
            {
                case "--m" when ok && value > 0:
                    messages = value;
                    break;
                case "--capacity" when ok && value <= 1 << 20:
                    capacity = (int)value;
                    break;
                case "--workers" when ok && value is > 0 and <= 64:
                    workers = (int)value;
                    break;
                case "--impl" when text is Implementation.GreenThreads or Implementation.Tasks:
                    implementation = text;
                    break;
                default:
                    Console.Error.WriteLine($"bad argument '{args[i]} {text}'.\n{Usage}");
                    return 2;
            }
        }

        var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        var stopwatch = Stopwatch.StartNew();
        FloodResult result;
        if (implementation == Implementation.GreenThreads)
        {
            using var scheduler = new Scheduler(workers);
            result = Flood.GreenThreads(scheduler, messages, capacity);
        }
        else
        {
            result = Flood.Channels(messages, capacity);
        }

        stopwatch.Stop();
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        var inOrder = result.InOrder == messages;
        var heapOk = capacity == 0 || result.PeakHeapGrowthBytes < HeapGrowthLimit;
        JsonLine.Print(json =>
        {
            json.WriteString("workload", "flood");
            json.WriteString("implementation", implementation);
            json.WriteNumber("workers", implementation == Implementation.GreenThreads ? workers : 0);
            json.WriteNumber("capacity", capacity);
            json.WriteNumber("messages", messages);
            json.WriteNumber("elapsed_ms", Math.Round(stopwatch.Elapsed.TotalMilliseconds, 1));
            json.WriteNumber("ns_per_msg", Math.Round(stopwatch.Elapsed.TotalMilliseconds * 1e6 / messages, 2));
            json.WriteNumber("in_order", result.InOrder);
            json.WriteNumber("peak_heap_growth_bytes", result.PeakHeapGrowthBytes);
            json.WriteNumber("allocated_bytes_per_msg", Math.Round((double)allocated / messages, 3));
            json.WriteBoolean("ok", inOrder && heapOk);
        });
        return inOrder && heapOk ? 0 : 1;
    }
}
