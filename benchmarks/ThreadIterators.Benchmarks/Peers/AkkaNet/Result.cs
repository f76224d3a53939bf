namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// What an actor reports to its parent: a run's answer to the <see cref="RunDriver"/>, a Skynet node's sum, the
/// counter's total. Sent once per actor at most, except in Skynet, where every node answers its parent with one.
/// </summary>
/// <param name="Value">The number reported.</param>
internal sealed record Result(long Value);
