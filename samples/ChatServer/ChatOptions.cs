using System;

namespace ThreadIterators.Samples.Chat;

/// <summary>The limits of a chat server; the defaults suit a few thousand connections on one machine.</summary>
public sealed record ChatOptions
{
    /// <summary>Gets the TCP port on 127.0.0.1; 0 picks a free one (see <see cref="ChatServer.Port"/>).</summary>
    public int Port { get; init; } = 7000;

    /// <summary>Gets how long a connection may send nothing before the server closes it.</summary>
    public TimeSpan IdleTimeout { get; init; } = TimeSpan.FromSeconds(60);

    /// <summary>
    /// Gets how many lines may wait to be written to one connection. A client that falls this far behind (it stopped
    /// reading) is dropped: its connection is closed and counted, so that it cannot grow the server's memory.
    /// </summary>
    public int OutboundCapacity { get; init; } = 1024;

    /// <summary>Gets the longest line, in bytes, a client may send; a longer one closes the connection.</summary>
    public int MaxLineBytes { get; init; } = 4096;

    /// <summary>Gets the OS threads the green threads run on.</summary>
    public int Workers { get; init; } = Environment.ProcessorCount;

    /// <summary>Gets the clock of the idle timeouts.</summary>
    public TimeProvider TimeProvider { get; init; } = TimeProvider.System;

    /// <summary>Gets where the scheduler runs ready green threads.</summary>
    public SchedulingPolicy Policy { get; init; } = SchedulingPolicy.WorkStealing;

    /// <summary>Gets a line that makes the connection that says it throw, as a bug would; for tests of fault isolation.</summary>
    internal string? FailOn { get; init; }

    /// <summary>
    /// Gets what is told, in <see cref="System.Diagnostics.Stopwatch"/> ticks, how long each receive that was still
    /// pending when started took from its task completing to its reader running again; for the benchmarks' probe. Null:
    /// nothing is measured, and a receive is yielded as the socket returns it.
    /// </summary>
    internal Action<long>? ReceiveHandled { get; init; }
}
