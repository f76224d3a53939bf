using System;
using System.Collections.Generic;
using System.Linq;
using BenchmarkDotNet.Attributes;
using WordCount;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// The producer/consumer word count on the default corpus (Perl's documentation from Debian's perl-doc, as a
/// MediaWiki dump), one variant and consumer count per case; the baseline is async/await tasks on one bounded
/// channel with the same number of consumers. Pick variants with <c>WORDCOUNT_VARIANTS=push_bal,pull_10</c> (all by
/// default). Each invocation's counts are checked against a single-threaded count.
/// </summary>
[Config(typeof(SuiteConfig))]
public class WordCountBenchmarks
{
    private string _dump = null!;

    private WordCounts _reference = null!;

    /// <summary>Gets the scheduler of the green-thread runs: 2 workers, one per core here.</summary>
    private Scheduler Scheduler { get; set; } = null!;

    /// <summary>Gets the green-thread variants to run: <c>WORDCOUNT_VARIANTS</c>, or all.</summary>
    public static IEnumerable<string> VariantNames =>
        Variant.Parse(Environment.GetEnvironmentVariable("WORDCOUNT_VARIANTS") ?? "all").Where(v => v.UsesScheduler).Select(v => v.Name);

    /// <summary>Gets or sets the variant.</summary>
    [ParamsSource(nameof(VariantNames))]
    public string VariantName { get; set; } = "push_bal";

    /// <summary>Gets or sets the number of consumers.</summary>
    [Params(1, 2, 3, 4)]
    public int Consumers { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _dump = Corpus.DefaultPath();
        _reference = WordCountJob.SingleThreaded(_dump);
        Scheduler = new Scheduler(2);
    }

    [GlobalCleanup]
    public void Cleanup() => Scheduler.Dispose();

    /// <summary>The baseline: a producer task and consumer tasks on one bounded channel of 100 pages.</summary>
    [Benchmark(Baseline = true)]
    public int TasksChannel() => Check(WordCountJob.Run(Variant.Parse("tasks_channel")[0], _dump, Consumers, null));

    /// <summary>Green threads on 2 workers, fed as the variant says.</summary>
    [Benchmark]
    public int ThreadIterators() => Check(WordCountJob.Run(Variant.Parse(VariantName)[0], _dump, Consumers, Scheduler));

    private int Check(WordCounts counts) =>
        counts.SameAs(_reference) ? counts.Pages : throw new InvalidOperationException($"{VariantName} with {Consumers} consumers counted differently from one thread.");
}
