using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders;

/// <summary>
/// One side of the comparison: two nodes on loopback, each in an OS process of its own or the first in this one,
/// so that every message between them crosses the network stack. The comparison calls its workloads from this
/// process, alternating contenders run by run.
/// </summary>
internal abstract class Contender(string name) : IAsyncDisposable
{
    /// <summary>Gets the name the report gives it.</summary>
    public string Name { get; } = name;

    /// <summary>Gets what it runs on, as the report prints it, for example "Akka.NET 1.5.74".</summary>
    public abstract string Version { get; }

    /// <summary>Gets the settings it runs with where they are not its defaults, or that the report should name; or null.</summary>
    public virtual string? Settings => null;

    /// <summary>Gets the child processes whose CPU time counts with this process's in a CPU-per-message figure.</summary>
    public abstract IEnumerable<Process> Nodes { get; }

    /// <summary>Starts both nodes and returns once each is ready to take the workloads.</summary>
    public abstract Task StartAsync();

    /// <summary>
    /// Sequential round trips from a process on the first node to one on the second: <paramref name="count"/> of
    /// them, each timed from the send to the answer's arrival, in microseconds.
    /// </summary>
    public abstract Task<double[]> PingPongAsync(int count);

    /// <summary>
    /// One way from the first node to a process on the second: <paramref name="count"/> messages with at most
    /// <paramref name="window"/> not yet acknowledged. Returns once the receiver has acknowledged the last one. Throws
    /// if the receiver saw a message lost, repeated or out of order.
    /// </summary>
    public abstract Task StreamAsync(int count, int window);

    /// <summary>
    /// A ring of <paramref name="size"/> processes placed on the two nodes in turn (the first on the first node),
    /// each forwarding to the next, so that every hop crosses: one token goes round it <paramref name="laps"/>
    /// times. Returns the time from the token's first send to its arrival back from its last lap; building the ring
    /// (before, or in <see cref="StartAsync"/>) is not counted.
    /// </summary>
    public abstract Task<TimeSpan> RingAsync(int size, int laps);

    /// <summary>
    /// Starts a third node holding one process, sets <paramref name="watchers"/> watchers on the first node watching
    /// it, kills the third node's OS process (the process alone: walking a process tree takes .NET tens of
    /// milliseconds, which would be counted), and returns the time from the kill to the moment the last watcher
    /// heard that it is gone. Throws if a watcher heard of it twice.
    /// </summary>
    public abstract Task<TimeSpan> NodeDownAsync(int watchers);

    /// <summary>Stops both nodes.</summary>
    public abstract ValueTask DisposeAsync();
}
