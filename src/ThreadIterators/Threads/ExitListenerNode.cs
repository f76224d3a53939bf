namespace ThreadIterators;

/// <summary>
/// The two references that string an <see cref="IExitListener"/> into one thread's list of listeners: intrusive, since
/// a list of references would cost a thread watched many times about 26 more bytes per watch in the arrays its growth
/// leaves behind; doubly linked, so that a removal (an answered ask drops its watch on the server) takes constant time.
/// </summary>
/// <remarks>
/// Only under the lock of the list's <see cref="ThreadEnd"/>, or by that end alone once it has taken the list.
/// </remarks>
internal struct ExitListenerNode
{
    /// <summary>The listener added after this one, nearer the list's head; null at the head or out of the list.</summary>
    internal IExitListener? Previous;

    /// <summary>The listener added before this one, further from the head; null at the tail or out of the list.</summary>
    internal IExitListener? Next;
}
