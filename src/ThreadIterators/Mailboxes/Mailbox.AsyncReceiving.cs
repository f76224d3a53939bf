using System;
using System.Threading;
using System.Threading.Channels;

namespace ThreadIterators;

// Async code as the mailbox's receiver: a ChannelReader<T> over the mailbox's own queue, with no green thread between
// the senders and the async consumer.
public sealed partial class Mailbox<T>
{
    /// <summary>
    /// Gets a <see cref="ChannelReader{T}"/> through which async code, or any OS thread, receives this mailbox's
    /// messages directly, with no green thread in between: <c>await foreach (var m in inbox.AsChannelReader().ReadAllAsync())</c>.
    /// </summary>
    /// <remarks>
    /// <para>
    /// <b>Who owns the receive.</b> The reader becomes the mailbox's receiver, for good: from the first call on, a green
    /// thread that yields <see cref="Recv"/> or calls <see cref="TryRecv"/> is refused with an
    /// <see cref="InvalidOperationException"/>, and <see cref="Receiver"/> never names a thread again (it keeps the
    /// last green receiver, if one had received and ended). Every call returns the same
    /// reader. It is refused while a green thread that has not ended receives from the mailbox. Senders are unchanged:
    /// green threads and OS threads send as before, and <see cref="Complete"/> ends the reader as
    /// <see cref="ChannelWriter{T}.Complete"/> ends a channel's.
    /// </para>
    /// <para>
    /// <b>As a channel reader.</b> Every message is read once, in each sender's order. <c>WaitToReadAsync</c> returns
    /// false once the mailbox is completed and drained, or throws a <see cref="ChannelClosedException"/> whose inner
    /// exception is the completion's error; <c>Completion</c> completes (or faults with that error) once the end has
    /// been seen; <c>ReadAsync</c>, <c>ReadAllAsync</c>, <c>TryPeek</c> and <c>Count</c> work as on a channel. A
    /// canceled <c>WaitToReadAsync</c> takes nothing: a message that arrives afterwards stays for the next read.
    /// </para>
    /// <para>
    /// <b>One wait at a time.</b> The reader is a single reader, as a channel made with
    /// <see cref="ChannelOptions.SingleReader"/> is: its calls may come from any thread, but one
    /// <c>WaitToReadAsync</c> must be awaited before the next is asked for; a second one while the first is
    /// outstanding throws an <see cref="InvalidOperationException"/>.
    /// </para>
    /// <para>
    /// <b>Where the consumer resumes.</b> A send that finds the reader waiting completes its wait on the thread pool
    /// (or the consumer's captured context), never on the sending thread, so a green sender's worker never runs the
    /// consumer's code. Waiting and waking allocate nothing.
    /// </para>
    /// <example>
    /// <code>
    /// var results = new Mailbox&lt;int&gt;("results");
    /// scheduler.Spawn(Produce(results));
    /// await foreach (var n in results.AsChannelReader().ReadAllAsync(token))
    /// {
    ///     Console.WriteLine(n);
    /// }
    ///
    /// static IEnumerable&lt;Event&gt; Produce(Mailbox&lt;int&gt; results)
    /// {
    ///     for (var i = 0; i &lt; 10; i++)
    ///     {
    ///         results.Send(i);
    ///         yield return Event.Yield;
    ///     }
    ///
    ///     results.Complete();   // ends the await foreach
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    /// <returns>The mailbox's reader.</returns>
    /// <exception cref="InvalidOperationException">A green thread that has not ended receives from the mailbox.</exception>
    /// <exception cref="NotSupportedException">
    /// The mailbox is a rendezvous mailbox (capacity 0): a channel reader's wait could hold a message its reader never
    /// takes, while the sender was told it was taken.
    /// </exception>
    public ChannelReader<T> AsChannelReader()
    {
        if (IsRendezvous)
        {
            throw new NotSupportedException(
                $"{this} is a rendezvous mailbox (capacity 0), whose sender completes only when a green receiver takes its message; async code cannot read it through AsChannelReader(). Give it a capacity, or receive in a green thread.");
        }

        if (Volatile.Read(ref _chooser) is MailboxChannelReader<T> { IsAttached: true } attached)
        {
            return attached;
        }

        // One attach at a time (the receive event is internal, so nothing else locks it); a green thread's bind does
        // not take the lock, and is ordered against it by the two looks below.
        lock (_receive)
        {
            if (Volatile.Read(ref _chooser) is MailboxChannelReader<T> { IsAttached: true } raced)
            {
                return raced;
            }

            var receiver = Volatile.Read(ref _receiver);
            if (receiver is not null && !receiver.IsCompleted)
            {
                throw GreenReceiver(receiver);
            }

            if (receiver is not null && !OutlivesReceiver)
            {
                throw ReceiverEndedForGood("AsChannelReader()", receiver);
            }

            var reader = new MailboxChannelReader<T>(this);
            if (TestHooks.Enabled)
            {
                TestHooks.BeforeReaderSwap?.Invoke(this);
            }

            if (Interlocked.CompareExchange(ref _chooser, reader, null) is not null)
            {
                // A branch of a live receiver's choice: that receiver is bound, and the look above raced its bind.
                throw GreenReceiver(Volatile.Read(ref _receiver));
            }

            if (TestHooks.Enabled)
            {
                TestHooks.AfterReaderSwap?.Invoke(this);
            }

            // After the swap's full fence, as a bind looks at _chooser after its own: either the bind sees the reader
            // and refuses, or this look sees the bound thread. The thread may have parked in between on a plain
            // receive; a sender that takes that mark and reads this unattached reader wakes the thread instead.
            receiver = Volatile.Read(ref _receiver);
            if (receiver is not null && !receiver.IsCompleted)
            {
                Interlocked.CompareExchange(ref _chooser, null, reader);
                throw GreenReceiver(receiver);
            }

            // A thread that bound before the swap and has ended since may have written _chooser in a choice of its
            // own (its plain writes go over the reader); then the reader is not where senders look for it.
            if (Volatile.Read(ref _chooser) != reader)
            {
                throw GreenReceiver(receiver);
            }

            reader.Attach();
            return reader;
        }
    }

    private InvalidOperationException GreenReceiver(GreenThread? receiver) =>
        new($"AsChannelReader() cannot make async code the receiver of {this}: {receiver} receives from it. A mailbox has one receiver; give the async consumer its own mailbox, or call AsChannelReader() before any green thread receives.");
}
