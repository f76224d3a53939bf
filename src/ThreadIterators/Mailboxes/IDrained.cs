namespace ThreadIterators;

/// <summary>
/// A target of messages whose receiving green thread is known, for the wait-for graph (<see cref="WaitGraph"/>): a
/// thread waiting for room in it, or for the reply to a request sent to it, waits on that receiver. Not generic, so
/// an ask, which holds its target as an object, can read it too.
/// </summary>
internal interface IDrained
{
    /// <summary>Gets the green thread that receives from the target: a mailbox's receiver; null if none yet, or several. Any thread.</summary>
    GreenThread? Drainer { get; }
}
