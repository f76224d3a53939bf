using System;

namespace ThreadIterators.Orleans;

/// <summary>
/// An ask across silos failed because the process asked is gone: it ended, its silo left the cluster, or no process
/// held the name and none could be started for it. Erlang's <c>gen_server:call</c> exits the same way
/// (<c>noproc</c>, <c>nodedown</c>). The ask across silos' counterpart of <see cref="ServerEndedException"/>.
/// </summary>
public sealed class ProcessEndedException : Exception
{
    /// <summary>Initializes a new instance of the <see cref="ProcessEndedException"/> class.</summary>
    public ProcessEndedException()
    {
    }

    /// <summary>Initializes a new instance of the <see cref="ProcessEndedException"/> class.</summary>
    /// <param name="message">The message.</param>
    public ProcessEndedException(string message)
        : base(message)
    {
    }

    /// <summary>Initializes a new instance of the <see cref="ProcessEndedException"/> class.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public ProcessEndedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    internal ProcessEndedException(string process, ProcessExitReason reason, string? detail)
        : base($"The ask of process \"{process}\" failed: the process is gone ({reason}{(detail is null ? string.Empty : $": {detail}")}) without answering.")
    {
        Process = process;
        Reason = reason;
    }

    /// <summary>Gets the name of the process that was asked.</summary>
    public string? Process { get; }

    /// <summary>Gets why the process is gone.</summary>
    public ProcessExitReason Reason { get; }
}
