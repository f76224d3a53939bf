using System;
using System.Collections.Generic;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>A named process on this silo whose inbox holds messages of type <typeparamref name="T"/>.</summary>
internal sealed class LocalProcess<T> : LocalProcess
{
    private GreenThread? _thread;

    private LocalProcess(string name, Mailbox<T> inbox)
        : base(name) => Inbox = inbox;

    internal Mailbox<T> Inbox { get; }

    internal override GreenThread Thread => _thread!;

    internal override Type MessageType => typeof(T);

    /// <summary>
    /// Starts the process: its body runs as a sub-body of one that tells the activation of its end, whatever the end
    /// (a return, a fault, a stop), from its <c>finally</c> block; a fault goes on up and ends the thread as it would
    /// have, reported as any unobserved fault is.
    /// </summary>
    internal static LocalProcess<T> Start(string name, int? capacity, Scheduler scheduler, IProcessActivation activation, Func<Mailbox<T>, IEnumerable<Event>> body)
    {
        var inbox = capacity is { } bound ? new Mailbox<T>(bound, $"inbox of process \"{name}\"") : new Mailbox<T>();
        var process = new LocalProcess<T>(name, inbox);
        process._thread = scheduler.SpawnReceiver(inbox, Run(body(inbox) ?? throw new InvalidOperationException($"The body factory of process \"{name}\" returned null."), activation, process), name);
        return process;
    }

    internal override InboxOutcome TryDeliver(object? message)
    {
        if (message is not T && !(message is null && default(T) is null))
        {
            return InboxOutcome.NotOfType;
        }

        if (Inbox.Capacity is null)
        {
            // Unbounded: never waits, from any thread.
            Inbox.Send((T)message!);
            return InboxOutcome.Taken;
        }

        // Bounded: never blocks the caller (a grain's turn, a green thread); a full or completed inbox is for
        // DeliverWhenRoomAsync.
        return Inbox.TrySend((T)message!) ? InboxOutcome.Taken : InboxOutcome.Full;
    }

    internal override async Task DeliverWhenRoomAsync(object? message, CancellationToken cancellationToken)
    {
        try
        {
            await Inbox.SendAsync((T)message!, cancellationToken).ConfigureAwait(true);
        }
        catch (ChannelClosedException)
        {
            // Completed as its thread ended (or by its body): the message dies with the process, here, as one sent to
            // an ended process's unbounded inbox does.
            Thread.Scheduler.ReportDeadLetter(message, Inbox, Ended.IsCompleted ? DeadLetterReason.SentAfterReceiverEnded : DeadLetterReason.RefusedByTarget);
        }
    }

    /// <inheritdoc/>
    public override string ToString() => $"process \"{Name}\"";

    private static IEnumerable<Event> Run(IEnumerable<Event> body, IProcessActivation activation, LocalProcess process)
    {
        // The body runs as a sub-body whose fault is caught here only to be told to monitors, then thrown on, so the
        // thread still ends with it and it is reported as any fault is. A stop ends both bodies with neither line after
        // the yield run: the finally block tells it apart by what they left.
        var reason = ProcessExitReason.Stopped;
        string? detail = null;
        try
        {
            var call = Event.Call(body).Catch();
            yield return call;
            if (call.Exception is { } fault)
            {
                reason = ProcessExitReason.Faulted;
                detail = $"{fault.GetType().FullName}: {fault.Message}";
                ExceptionDispatchInfo.Throw(fault);
            }

            reason = ProcessExitReason.Normal;
        }
        finally
        {
            process.End(reason, detail ?? (reason == ProcessExitReason.Stopped ? process.StopDetail : null));
            activation.ProcessEnded(process);
        }
    }
}
