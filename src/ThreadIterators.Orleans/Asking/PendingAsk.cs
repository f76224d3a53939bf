using System;

namespace ThreadIterators.Orleans;

/// <summary>An ask across silos this silo made, from its request's sending until its answer or its process's end.</summary>
internal abstract class PendingAsk
{
    protected PendingAsk(Guid id, string process)
    {
        Id = id;
        Process = process;
    }

    internal Guid Id { get; }

    /// <summary>Gets the name of the process asked.</summary>
    internal string Process { get; }

    /// <summary>Gets the request as it went into the link, by which an undeliverable one is known.</summary>
    internal object? Request { get; private protected set; }

    /// <summary>Gets whether the asker still waits: false once it was answered, timed out, or was stopped.</summary>
    internal abstract bool IsWaiting { get; }

    /// <summary>Sends the request to the process (the forwarder, once the ask is armed).</summary>
    internal abstract void Send();

    /// <summary>Hands the answer to the asker; false if it had stopped waiting (the answer is then a dead letter).</summary>
    internal abstract bool Answer(AskAnswer answer);

    /// <summary>Ends the asker's wait with <paramref name="exception"/>; false if it had stopped waiting.</summary>
    internal abstract bool Fail(Exception exception);
}
