using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using ThreadIterators.Benchmarks.QuickRunner;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>One configuration both sides run with the same sizes on the same number of OS threads.</summary>
/// <param name="Workload">The quick runner's workload name, or <c>footprint</c>.</param>
/// <param name="Sizes">The sizes, passed to both sides as <c>--n</c>, <c>--m</c>, <c>--hops</c>.</param>
/// <param name="Workers">Scheduler workers on our side, <c>+S W:W</c> on Erlang's; pool threads for the .NET peers.</param>
/// <param name="WithPeers">Whether the .NET peers (<see cref="Peers"/>) run the case too.</param>
internal sealed record ComparisonCase(string Workload, RunOptions Sizes, int Workers, bool WithPeers = false)
{
    /// <summary>
    /// Gets the .NET implementations the scaling table sets beside both sides: the async/await with channels baseline
    /// and the two actor libraries, each in a process whose thread pool has as many threads as the case's OS threads.
    /// </summary>
    public static IReadOnlyList<string> Peers { get; } = [Implementation.Tasks, Implementation.Akka, Implementation.ProtoActor];

    /// <summary>The name of the memory measurement, which is not a message workload.</summary>
    public const string Footprint = "footprint";

    /// <summary>Gets the size options, the same for both sides.</summary>
    public IReadOnlyList<string> SizeArguments => [.. Sizes.Arguments()];

    /// <summary>Gets the sizes as both sides must print them: the quick runner catalogue's text, or the thread count.</summary>
    public string Parameters => Workload == Footprint
        ? $"threads={Sizes.N}"
        : Catalogue.All.Single(w => w.Name == Workload).Describe(Sizes);

    /// <summary>Gets the most processes alive at once, from which the Erlang side's <c>+P</c> limit is set.</summary>
    public long Processes => Workload switch
    {
        "ring" => Sizes.N + 2,
        "skynet" => Skynet.Threads(Sizes.N) + 1,
        Footprint => Sizes.N + 1,
        _ => ThreadRing.Size + 2,
    };

    /// <summary>Gets how the progress lines and the report name it: the workload and its sizes.</summary>
    public string Label => $"{Workload} {Parameters}";

    /// <summary>Gets the arguments of the quick runner (or the footprint command) for <paramref name="runs"/> measured runs.</summary>
    public IReadOnlyList<string> OurArguments(int runs) => Arguments(Implementation.GreenThreads, runs);

    /// <summary>Gets the quick runner's arguments for <paramref name="runs"/> measured runs of <paramref name="implementation"/>.</summary>
    public IReadOnlyList<string> Arguments(string implementation, int runs)
    {
        var workers = Workers.ToString(CultureInfo.InvariantCulture);
        return Workload == Footprint
            ? ["footprint", .. SizeArguments, "--workers", workers]
            : ["run", Workload, .. SizeArguments, "--workers", workers, "--impl", implementation, "--runs", runs.ToString(CultureInfo.InvariantCulture), "--json"];
    }

    /// <summary>Gets the Erlang driver's arguments (after <c>-run bench main</c>) for <paramref name="runs"/> measured runs.</summary>
    public IReadOnlyList<string> ErlangArguments(int runs) => Workload == Footprint
        ? [Workload, .. SizeArguments]
        : [Workload, .. SizeArguments, "--runs", runs.ToString(CultureInfo.InvariantCulture)];

    /// <summary>Gets the Erlang process limit (<c>+P</c>): twice the processes rounded up to a power of two, at least 1,048,576 (the default, 262,144, is too few for the largest ring).</summary>
    public long ProcessLimit => Math.Max(1L << 20, (long)System.Numerics.BitOperations.RoundUpToPowerOf2((ulong)(2 * Processes)));
}
