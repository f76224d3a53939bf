using System.Collections.Generic;

namespace ThreadIterators.Cluster.Benchmarks;

/// <summary>What one contender measured, run by run, or where it failed.</summary>
internal sealed class ContenderResults(string name)
{
    public string Name { get; } = name;

    public string? Version { get; set; }

    public string? Settings { get; set; }

    /// <summary>Gets or sets the first failure, after which the contender is not run again.</summary>
    public string? Failure { get; set; }

    public List<RunRow> Runs { get; } = [];
}
