using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Benchmarks.QuickRunner;
using WordCount;

namespace ThreadIterators.Benchmarks.WordCountComparison;

/// <summary>
/// <c>wordcount [--consumers 1,2,3,4] [--runs R] [--passes P] [--workers W] [--variant NAME[,NAME]|all] [--dump PATH] [--out FILE]</c>:
/// the producer/consumer word count, every variant with each number of consumers, R runs each in rounds (every
/// configuration once per round, so drift spreads evenly), medians in seconds, speedups, and the verdicts on the
/// targets, as markdown. Every run's counts are checked against a single-threaded count; exits with 1 if any differs.
/// </summary>
internal static class WordCountCommand
{
    private const string Usage = "usage: wordcount [--consumers 1,2,3,4] [--runs R] [--passes P] [--workers W] [--variant NAME[,NAME]|all] [--dump PATH] [--out FILE]";

    public static int Execute(string[] args)
    {
        int[] consumerCounts = [1, 2, 3, 4];
        var runs = 5;
        var passes = 5;
        var workers = 2;
        IReadOnlyList<Variant> variants = Variant.All;
        string? dump = null;
        string? output = null;
        try
        {
            for (var i = 1; i < args.Length; i += 2)
            {
                var value = i + 1 < args.Length ? args[i + 1] : throw new ArgumentException($"{args[i]} needs a value.");
                switch (args[i])
                {
                    case "--consumers":
                        consumerCounts = [.. value.Split(',').Select(Positive)];
                        break;
                    case "--runs":
                        runs = Positive(value);
                        break;
                    case "--passes":
                        passes = Positive(value);
                        break;
                    case "--workers":
                        workers = Positive(value);
                        break;
                    case "--variant":
                        variants = Variant.Parse(value);
                        break;
                    case "--dump":
                        dump = value;
                        break;
                    case "--out":
                        output = value;
                        break;
                    default:
                        throw new ArgumentException($"unknown argument '{args[i]}'.");
                }
            }
        }
        catch (Exception error) when (error is ArgumentException or FormatException or OverflowException)
        {
            Console.Error.WriteLine($"{error.Message}\n{Usage}");
            return 2;
        }

        dump ??= Corpus.DefaultPath();
        var report = Measure(dump, passes, workers, runs, consumerCounts, variants, Console.Error);
        var text = report.ToMarkdown();
        Console.WriteLine(text);
        if (output is not null)
        {
            File.WriteAllText(output, text);
        }

        return report.AllCountsMatch ? 0 : 1;
    }

    /// <summary>Runs every configuration <paramref name="runs"/> times, in rounds, after one warm-up run of each variant.</summary>
    internal static WordCountReport Measure(string dump, int passes, int workers, int runs, IReadOnlyList<int> consumerCounts, IReadOnlyList<Variant> variants, TextWriter progress)
    {
        var stopwatch = Stopwatch.StartNew();
        var reference = WordCountJob.SingleThreaded(dump, passes);
        var single = new List<double>();
        var parsing = new List<double>();
        var times = new Dictionary<(string Variant, int Consumers), List<double>>();
        var mismatches = new List<string>();
        using var scheduler = new Scheduler(workers);
        foreach (var variant in variants)
        {
            WordCountJob.Run(variant, dump, 2, scheduler, passes);
        }

        for (var round = 1; round <= runs; round++)
        {
            single.Add(Time(() => WordCountJob.SingleThreaded(dump, passes), reference, "single thread", mismatches));
            parsing.Add(ParseOnly(dump, passes, reference, mismatches));
            foreach (var consumers in consumerCounts)
            {
                foreach (var variant in variants)
                {
                    var seconds = Time(() => WordCountJob.Run(variant, dump, consumers, scheduler, passes), reference, $"{variant.Name} with {consumers} consumers", mismatches);
                    if (!times.TryGetValue((variant.Name, consumers), out var list))
                    {
                        times[(variant.Name, consumers)] = list = [];
                    }

                    list.Add(seconds);
                }
            }

            progress.WriteLine($"round {round} of {runs} done after {stopwatch.Elapsed.TotalSeconds:F0} s");
        }

        return new WordCountReport(
            dump,
            reference,
            passes,
            workers,
            runs,
            consumerCounts,
            variants,
            Measurement.MedianOf(single),
            Measurement.MedianOf(parsing),
            times.ToDictionary(pair => pair.Key, pair => Measurement.MedianOf(pair.Value)),
            mismatches,
            $"{MachineInfo.Processor}, {MachineInfo.Memory}, {MachineInfo.OperatingSystem}, .NET {Environment.Version}");
    }

    private static double Time(Func<WordCounts> run, WordCounts reference, string what, List<string> mismatches)
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        var stopwatch = Stopwatch.StartNew();
        var counts = run();
        var seconds = stopwatch.Elapsed.TotalSeconds;
        if (!counts.SameAs(reference))
        {
            mismatches.Add(what);
        }

        return seconds;
    }

    /// <summary>Times reading the pages without counting them: the producer's share of the work.</summary>
    private static double ParseOnly(string dump, int passes, WordCounts reference, List<string> mismatches)
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        var stopwatch = Stopwatch.StartNew();
        var pages = WordCountJob.Pages(dump, passes).Count();
        var seconds = stopwatch.Elapsed.TotalSeconds;
        if (pages != reference.Pages)
        {
            mismatches.Add("parsing alone");
        }

        return seconds;
    }

    private static int Positive(string text)
    {
        var value = int.Parse(text, NumberStyles.Integer, CultureInfo.InvariantCulture);
        return value > 0 ? value : throw new ArgumentException($"'{text}' must be a positive whole number.");
    }
}
