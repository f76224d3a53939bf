using System.Threading;

namespace ThreadIterators.Samples.Chat;

/// <summary>Live counts of a chat server; any thread reads them.</summary>
public sealed class ChatCounters
{
    private long _connections;
    private long _accepted;
    private long _rooms;
    private long _linesIn;
    private long _linesOut;
    private long _droppedSlow;
    private long _closedIdle;
    private long _faulted;

    /// <summary>Gets the connections open now.</summary>
    public long Connections => Volatile.Read(ref _connections);

    /// <summary>Gets the connections accepted since the start.</summary>
    public long Accepted => Volatile.Read(ref _accepted);

    /// <summary>Gets the rooms with members now.</summary>
    public long Rooms => Volatile.Read(ref _rooms);

    /// <summary>Gets the lines received from clients.</summary>
    public long LinesIn => Volatile.Read(ref _linesIn);

    /// <summary>Gets the lines written to clients (broadcasts and replies).</summary>
    public long LinesOut => Volatile.Read(ref _linesOut);

    /// <summary>Gets the clients dropped because they fell <see cref="ChatOptions.OutboundCapacity"/> lines behind.</summary>
    public long DroppedSlow => Volatile.Read(ref _droppedSlow);

    /// <summary>Gets the connections closed for sending nothing for <see cref="ChatOptions.IdleTimeout"/>.</summary>
    public long ClosedIdle => Volatile.Read(ref _closedIdle);

    /// <summary>Gets the connections that ended with an exception of the server's own code.</summary>
    public long Faulted => Volatile.Read(ref _faulted);

    /// <inheritdoc/>
    public override string ToString() =>
        $"connections {Connections}, rooms {Rooms}, lines in {LinesIn}, out {LinesOut}, dropped (slow) {DroppedSlow}, closed (idle) {ClosedIdle}, faulted {Faulted}";

    /// <summary>Takes the counts another process printed (a server in another language): they replace these.</summary>
    internal void Set(long connections, long rooms, long linesIn, long linesOut, long droppedSlow, long closedIdle, long faulted)
    {
        Volatile.Write(ref _connections, connections);
        Volatile.Write(ref _rooms, rooms);
        Volatile.Write(ref _linesIn, linesIn);
        Volatile.Write(ref _linesOut, linesOut);
        Volatile.Write(ref _droppedSlow, droppedSlow);
        Volatile.Write(ref _closedIdle, closedIdle);
        Volatile.Write(ref _faulted, faulted);
    }

    internal void Opened()
    {
        Interlocked.Increment(ref _connections);
        Interlocked.Increment(ref _accepted);
    }

    internal void Closed() => Interlocked.Decrement(ref _connections);

    internal void RoomOpened() => Interlocked.Increment(ref _rooms);

    internal void RoomClosed() => Interlocked.Decrement(ref _rooms);

    internal void LineIn() => Interlocked.Increment(ref _linesIn);

    internal void LinesWritten(int count) => Interlocked.Add(ref _linesOut, count);

    internal void Dropped() => Interlocked.Increment(ref _droppedSlow);

    internal void Idle() => Interlocked.Increment(ref _closedIdle);

    internal void Fault() => Interlocked.Increment(ref _faulted);
}
