using System;

namespace ThreadIterators;

/// <summary>
/// The fault of a green thread that made an event whose message only its yield sends (a <c>Put(message)</c> into a full
/// mailbox) and yielded something else, or ended, first: the message would be lost without a word. While the event is
/// unyielded, its capture stands in the thread's <see cref="GreenThread.PendingFault"/> (the steps are in the header of
/// GreenThread.Stopping.cs), so the worker's one read of that field after each yield finds it, at no cost to the hop.
/// </summary>
/// <remarks>The message is formatted when read, so a put that is yielded, as nearly all are, pays no string for it.</remarks>
internal sealed class UnyieldedEventException : InvalidOperationException
{
    internal UnyieldedEventException(GreenThread thread, Event unyielded)
    {
        Thread = thread;
        Event = unyielded;
    }

    /// <summary>Gets the thread that made the event.</summary>
    internal GreenThread Thread { get; }

    /// <summary>Gets the event never yielded.</summary>
    internal Event Event { get; }

    /// <inheritdoc/>
    public override string Message =>
        $"{Thread} made {Event}, found the mailbox full, and did not yield it at its next yield (or ended first): its message was never sent. Yield each Put(message) right away: `yield return mailbox.Put(message);`.";
}
