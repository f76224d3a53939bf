namespace ThreadIterators;

/// <summary>
/// An event that may wait for a message: a receive, or a timed wait or a choice over one. A thread that yields one
/// that does is done with the message it took last, whose receive span ends there (Tracing.cs, step 2). An interface,
/// not a hook of <see cref="Event"/>: only these events know of it, and only tracing asks.
/// </summary>
internal interface IMessageWait
{
    /// <summary>Gets a value indicating whether the event waits for a message. Asked only while tracing.</summary>
    bool WaitsForMessage { get; }
}
