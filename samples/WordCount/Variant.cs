using System;
using System.Collections.Generic;
using System.Linq;
using ThreadIterators;

namespace WordCount;

/// <summary>One way of feeding the pages to the consumers, named as in the producer/consumer study it follows.</summary>
/// <param name="Name">The name: <c>push_rr</c>, <c>flow_sm</c>, <c>pull_10</c>, <c>tasks_channel</c>...</param>
/// <param name="Approach">How the producer and the consumers exchange pages.</param>
/// <param name="Routing">Which consumer gets a pushed page; for pull and the task baseline, irrelevant.</param>
/// <param name="BatchSize">Pages per pull request.</param>
/// <param name="Prefetch">Whether a puller keeps its next request at the producer while it counts a batch.</param>
public sealed record Variant(string Name, Approach Approach, Routing Routing = Routing.None, int BatchSize = 0, bool Prefetch = false)
{
    /// <summary>Gets every variant, in the order the tables list them.</summary>
    public static IReadOnlyList<Variant> All { get; } =
    [
        new("push_rr", Approach.PushBounded, Routing.RoundRobin),
        new("push_sm", Approach.PushBounded, Routing.SmallestMailbox),
        new("push_bal", Approach.PushBounded, Routing.Balancing),
        new("flow_rr", Approach.FlowControl, Routing.RoundRobin),
        new("flow_sm", Approach.FlowControl, Routing.SmallestMailbox),
        new("flow_bal", Approach.FlowControl, Routing.Balancing),
        new("pull_1", Approach.Pull, BatchSize: 1),
        new("pull_10", Approach.Pull, BatchSize: 10),
        new("pull_20", Approach.Pull, BatchSize: 20),
        new("pull_50", Approach.Pull, BatchSize: 50),
        new("pull_cached", Approach.Pull, BatchSize: 10, Prefetch: true),
        new("tasks_channel", Approach.TasksChannel),
    ];

    /// <summary>Gets a value indicating whether the variant runs on green threads (all but the task baseline).</summary>
    public bool UsesScheduler => Approach != Approach.TasksChannel;

    /// <summary>Finds variants by name; <c>all</c> gives every one.</summary>
    /// <param name="names">Comma-separated names, or <c>all</c>.</param>
    /// <returns>The variants.</returns>
    /// <exception cref="ArgumentException">A name is unknown.</exception>
    public static IReadOnlyList<Variant> Parse(string names)
    {
        ArgumentNullException.ThrowIfNull(names);
        if (names == "all")
        {
            return All;
        }

        return [.. names.Split(',').Select(name => All.FirstOrDefault(v => v.Name == name)
            ?? throw new ArgumentException($"unknown variant '{name}'; the variants are {string.Join(", ", All.Select(v => v.Name))}, or all.", nameof(names)))];
    }

    /// <summary>Gets the scheduler policy-independent description of the routing, for messages.</summary>
    internal RoutingStrategy Strategy => Routing == Routing.SmallestMailbox ? RoutingStrategy.SmallestMailbox : RoutingStrategy.RoundRobin;
}
