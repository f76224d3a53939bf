namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>What the chat load client does.</summary>
internal sealed record ChatLoadOptions
{
    /// <summary>Gets the server's port on 127.0.0.1.</summary>
    public int Port { get; init; } = 7000;

    /// <summary>Gets how many connections to open (C).</summary>
    public int Connections { get; init; } = 100;

    /// <summary>Gets the members of each room (R); connection i joins room i / R.</summary>
    public int RoomSize { get; init; } = 10;

    /// <summary>Gets how many lines each connection sends (L).</summary>
    public int Lines { get; init; } = 100;

    /// <summary>Gets the length a line is padded to (its number and timestamp, then 'x's), or 0 for no padding.</summary>
    public int LineBytes { get; init; }

    /// <summary>Gets the lines each connection sends per second, or 0 for as fast as the room takes them.</summary>
    public double Rate { get; init; }

    /// <summary>
    /// Gets, as fast as possible, how many lines a connection may be ahead of what it has received from the others:
    /// so the client never outruns itself and gets dropped as a slow reader.
    /// </summary>
    public int Window { get; init; } = 32;

    /// <summary>Gets the server's process id, to read its memory from /proc; 0 to not measure it.</summary>
    public int ServerPid { get; init; }

    /// <summary>
    /// Gets a value indicating whether one connection in ten stalls (joins, then never reads) and another vanishes
    /// mid-line when the lines start. Only the others send; each checks it gets every line of the others that send.
    /// </summary>
    public bool Misbehaving { get; init; }

    /// <summary>Gets how long without any progress before the run gives up and counts what is missing as lost.</summary>
    public int StallSeconds { get; init; } = 30;
}
