namespace ThreadIterators;

/// <summary>
/// An event that may stand for a put made by <c>Put(message)</c>: a thread that made several puts may yield them in
/// another order, so yielding one while another put's unyielded mark stands is let pass (the marked put's park, or any
/// put's, takes the mark back). Yielding any other event while a mark stands ends the thread with the mark, before
/// that event does anything (GreenThread.Stopping.cs, Worker.Turns.cs).
/// </summary>
internal interface IPutYield
{
    /// <summary>Gets whether this event is a put made by <c>Put(message)</c>: sent already, or waiting for room.</summary>
    bool IsPutFromPut { get; }
}
