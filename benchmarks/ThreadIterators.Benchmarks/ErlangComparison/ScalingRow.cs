using System.Collections.Generic;
using System.Linq;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>
/// One workload and size on 1 and 2 OS threads, for every implementation that ran it: the scaling table's row and
/// the scaling chart's group of bars.
/// </summary>
/// <param name="Workload">The workload's name.</param>
/// <param name="Parameters">Its sizes, as the runs printed them.</param>
/// <param name="One">The case on 1 OS thread.</param>
/// <param name="Two">The case on 2 OS threads.</param>
internal sealed record ScalingRow(string Workload, string Parameters, CaseResult One, CaseResult Two)
{
    /// <summary>Gets the implementations in the order the table and chart show them, with their display names.</summary>
    public static IReadOnlyList<(string Name, string Display)> Implementations { get; } =
    [
        (Implementation.GreenThreads, "ThreadIterators"),
        ("erlang", "Erlang"),
        (Implementation.Tasks, "Tasks"),
        (Implementation.Akka, "Akka.NET"),
        (Implementation.ProtoActor, "Proto.Actor"),
    ];

    /// <summary>Gets the median milliseconds of <paramref name="implementation"/> on 1 OS thread, NaN if it failed or did not run.</summary>
    public double OneMs(string implementation) => One.MedianOf(implementation);

    /// <summary>Gets the median milliseconds of <paramref name="implementation"/> on 2 OS threads, NaN if it failed or did not run.</summary>
    public double TwoMs(string implementation) => Two.MedianOf(implementation);

    /// <summary>Gets how many times faster <paramref name="implementation"/> ran on 2 OS threads than on 1 (below 1: slower).</summary>
    public double Speedup(string implementation) => OneMs(implementation) / TwoMs(implementation);

    /// <summary>
    /// Gets a row for every workload and size that ran on 1 and on 2 OS threads with the .NET peers, in the order
    /// of the plan.
    /// </summary>
    public static List<ScalingRow> From(IReadOnlyList<CaseResult> results) =>
        results.Where(r => r.Case.WithPeers && r.Case.Workers == 1)
            .Select(one => (One: one, Two: results.FirstOrDefault(r => r.Case.WithPeers && r.Case.Workers == 2 && r.Case.Label == one.Case.Label)))
            .Where(pair => pair.Two is not null)
            .Select(pair => new ScalingRow(pair.One.Case.Workload, pair.One.Case.Parameters, pair.One, pair.Two!))
            .ToList();
}
