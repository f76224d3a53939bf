using System;

namespace ThreadIterators;

/// <summary>Sends the runtime's own messages (a watch's, a link's) without ever blocking, and dead-letters what a target refuses.</summary>
/// <remarks>Stateless; any thread, usually the ending thread's worker.</remarks>
internal static class Deliver
{
    /// <summary>Sends <paramref name="message"/> about <paramref name="ended"/>'s end; a refusal is a dead letter of its scheduler.</summary>
    internal static void To(IMessageTarget<ThreadExit> target, ThreadExit message, GreenThread ended)
    {
        bool sent;
        try
        {
            sent = target.TrySend(message);
        }
        catch (Exception exception)
        {
            // A target of the user's own that throws: the message is lost to it, but not silently.
            ended.Scheduler.ReportUnobserved(ended, new InvalidOperationException($"{target} threw while given {message}; the message is a dead letter.", exception));
            sent = false;
        }

        if (!sent)
        {
            ended.Scheduler.DeadLettered(message, target, receiver: null, DeadLetterReason.RefusedByTarget);
        }
    }

    /// <summary>Refuses a bounded target, which the end of a thread could not wait on for room.</summary>
    internal static void CheckUnbounded(IMessageTarget<ThreadExit> target, string paramName)
    {
        ArgumentNullException.ThrowIfNull(target, paramName);
        if (target is IBoundedTarget<ThreadExit> { Room: not null })
        {
            throw new ArgumentException($"{target} is bounded: a thread's end sends its message without waiting, so it needs a target that never fills (an unbounded mailbox).", paramName);
        }
    }
}
