using System;

namespace ThreadIterators.Orleans;

/// <summary>
/// An ask across silos failed: the process asked answered with <see cref="RemoteReplyTo{T}.Fail"/>, or with a value of
/// another type than the ask expected. The remote exception's type and message are kept; the exception itself stays
/// where it was thrown.
/// </summary>
public sealed class RemoteProcessException : Exception
{
    /// <summary>Initializes a new instance of the <see cref="RemoteProcessException"/> class.</summary>
    public RemoteProcessException()
    {
    }

    /// <summary>Initializes a new instance of the <see cref="RemoteProcessException"/> class.</summary>
    /// <param name="message">The message.</param>
    public RemoteProcessException(string message)
        : base(message)
    {
    }

    /// <summary>Initializes a new instance of the <see cref="RemoteProcessException"/> class.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public RemoteProcessException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    internal RemoteProcessException(string process, string? remoteType, string message)
        : base(message)
    {
        Process = process;
        RemoteType = remoteType;
    }

    /// <summary>Gets the name of the process that was asked.</summary>
    public string? Process { get; }

    /// <summary>Gets the full name of the remote exception's type, if the process failed the ask.</summary>
    public string? RemoteType { get; }
}
