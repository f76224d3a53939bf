using System;

namespace ThreadIterators;

/// <summary>
/// The fault of a green thread that made an event only its yield makes good, and yielded something else, or ended,
/// first: a <c>Put(message)</c> into a full mailbox, whose message would be lost without a word. While the event is
/// unyielded, its capture stands in the thread's <see cref="GreenThread.PendingFault"/> (the steps are in the header of
/// GreenThread.Stopping.cs), so the worker's one read of that field after each yield finds it, at no cost to the hop.
/// </summary>
/// <remarks>The message is formatted when read, so a put that is yielded, as nearly all are, pays no string for it.</remarks>
internal sealed class UnyieldedEventException : InvalidOperationException
{
    internal UnyieldedEventException(GreenThread thread, Event unyielded, string loss)
    {
        Thread = thread;
        Event = unyielded;
        Loss = loss;
    }

    /// <summary>Gets the thread that made the event.</summary>
    internal GreenThread Thread { get; }

    /// <summary>Gets the event never yielded.</summary>
    internal Event Event { get; }

    /// <summary>Gets what not yielding it loses, and the remedy, for the message.</summary>
    internal string Loss { get; }

    /// <inheritdoc/>
    public override string Message =>
        $"{Thread} made {Event} and did not yield it at its next yield (or ended first): {Loss}";
}
