using System;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using ThreadIterators;

namespace ThreadIterators.Samples.Ring;

/// <summary>Runs the ring: <c>Ring &lt;N&gt; &lt;M&gt; [--workers W]</c>.</summary>
internal static class Program
{
    private static int Main(string[] args)
    {
        if (!TryParse(args, out var n, out var m, out var workers))
        {
            Console.Error.WriteLine("usage: Ring <N> <M> [--workers W]   (N forwarders, M messages; W OS threads, default 1)");
            return 2;
        }

        using var scheduler = new Scheduler(workers);

        // Warm-up: small untimed rings for half a second, so tiered compilation has promoted the hot path and the
        // timed run measures optimized code rather than the JIT.
        var warmUp = Stopwatch.StartNew();
        while (warmUp.ElapsedMilliseconds < 500)
        {
            scheduler.Spawn(RingBenchmark.Run(scheduler, 100, 1000, new StrongBox<long>()), "warm-up");
            scheduler.WaitForAll();
        }

        var result = new StrongBox<long>();
        var allocatedAtPump = new StrongBox<long>();
        var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        var gen0Before = GC.CollectionCount(0);
        var stopwatch = Stopwatch.StartNew();
        scheduler.Spawn(RingBenchmark.Run(scheduler, n, m, result, allocatedAtPump), "ring");
        scheduler.WaitForAll();
        stopwatch.Stop();
        var allocatedAfter = GC.GetTotalAllocatedBytes(precise: true);
        var allocated = allocatedAfter - allocatedBefore;
        var allocatedByHops = allocatedAfter - allocatedAtPump.Value;
        var gen0 = GC.CollectionCount(0) - gen0Before;

        var hops = (long)n * m;
        var ms = stopwatch.Elapsed.TotalMilliseconds;
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"N={n} M={m} workers={workers} hops={hops} elapsed_ms={ms:F1} ns_per_hop={ms * 1e6 / hops:F2} allocated_bytes={allocated} allocated_after_spawn={allocatedByHops} bytes_per_hop_after_spawn={(double)allocatedByHops / hops:F4} gen0={gen0} received={result.Value}"));
        if (result.Value != m)
        {
            Console.Error.WriteLine($"wrong result: the drain received {result.Value} messages in order, expected {m}");
            return 1;
        }

        return 0;
    }

    private static bool TryParse(string[] args, out int n, out int m, out int workers)
    {
        n = m = 0;
        workers = 1;
        var positional = 0;
        for (var i = 0; i < args.Length; i++)
        {
            if (args[i] == "--workers" && i + 1 < args.Length)
            {
                if (!int.TryParse(args[++i], CultureInfo.InvariantCulture, out workers) || workers < 1)
                {
                    return false;
                }
            }
            else if (positional == 0 && int.TryParse(args[i], CultureInfo.InvariantCulture, out n))
            {
                positional++;
            }
            else if (positional == 1 && int.TryParse(args[i], CultureInfo.InvariantCulture, out m))
            {
                positional++;
            }
            else
            {
                return false;
            }
        }

        return positional == 2 && n > 0 && m >= 0;
    }
}
