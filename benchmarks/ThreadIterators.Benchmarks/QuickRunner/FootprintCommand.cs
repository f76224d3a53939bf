using System;
using System.Globalization;
using Footprint;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// <c>footprint [--n THREADS] [--workers W]</c>: the heap one parked green thread costs, as one JSON line, the
/// measurement the Erlang comparison sets against <c>erlang:memory(processes)</c> per parked process.
/// </summary>
internal static class FootprintCommand
{
    public static int Execute(string[] args)
    {
        var threads = 1_000_000;
        var workers = 2;
        for (var i = 1; i < args.Length; i += 2)
        {
            if (i + 1 >= args.Length || !int.TryParse(args[i + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) || value < 1)
            {
                Console.Error.WriteLine($"{args[i]} needs a positive whole number.");
                return 2;
            }

            switch (args[i])
            {
                case "--n":
                    threads = value;
                    break;
                case "--workers":
                    workers = value;
                    break;
                default:
                    Console.Error.WriteLine($"unknown argument '{args[i]}'; usage: footprint [--n THREADS] [--workers W]");
                    return 2;
            }
        }

        var footprint = ParkedFootprint.Measure(threads, workers);
        JsonLine.Print(json =>
        {
            json.WriteString("workload", "footprint");
            json.WriteString("implementation", Implementation.GreenThreads);
            json.WriteNumber("workers", workers);
            json.WriteNumber("threads", threads);
            json.WriteNumber("heap_bytes", footprint.HeapBytes);
            json.WriteNumber("bytes_per_parked_thread", Math.Round(footprint.BytesPerParkedThread, 1));
            json.WriteNumber("received", footprint.Received);
            json.WriteBoolean("ok", footprint.Ok);
        });
        return footprint.Ok ? 0 : 1;
    }
}
