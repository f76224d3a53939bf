using System;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>An ask across silos this silo made, from its request's sending until its answer or its process's end.</summary>
internal abstract class PendingAsk : IForwardedRequest
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

    /// <summary>Gets or sets the monitor that watches the process for this ask; under the table's lock.</summary>
    internal ProcessMonitor? Monitor { get; set; }

    /// <summary>
    /// Gets the process asked, and its silo once its monitor has found it, for the asker's wait in the wait-for graph:
    /// the forwarder thread serving the core's ask is not what the asker waits for. Read without the table's lock: a
    /// description may miss a silo found a moment before.
    /// </summary>
    public string Destination => Monitor?.Host is { } silo ? $"process \"{Process}\" on silo {silo}" : $"process \"{Process}\"";

    /// <summary>Gets where the request went, once sent: the link and its position in it, to wait until it is carried.</summary>
    internal (OutboundLink? Link, long Position) Sent { get; private protected set; }

    /// <summary>Boxes the request once (<see cref="Request"/>), before the ask is kept and its request sent.</summary>
    internal abstract void Prepare();

    /// <summary>Sends the request to the process (the forwarder, once the ask is kept).</summary>
    internal abstract void Send();

    /// <summary>Gets a task that completes once the request has been carried to the process's silo (or given up).</summary>
    internal Task WhenCarried() => Sent.Link?.WhenCarried(Sent.Position) ?? Task.CompletedTask;

    /// <summary>Hands the answer to the asker; false if it had stopped waiting (the answer is then a dead letter).</summary>
    internal abstract bool Answer(AskAnswer answer);

    /// <summary>Ends the asker's wait with <paramref name="exception"/>; false if it had stopped waiting.</summary>
    internal abstract bool Fail(Exception exception);
}
