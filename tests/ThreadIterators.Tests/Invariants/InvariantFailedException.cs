using System;

namespace ThreadIterators.Tests;

/// <summary>A runtime invariant (a <c>Debug.Assert</c> in a DEBUG build of the library) failed.</summary>
public sealed class InvariantFailedException : Exception
{
    public InvariantFailedException()
    {
    }

    public InvariantFailedException(string? message)
        : base(message)
    {
    }

    public InvariantFailedException(string? message, Exception? innerException)
        : base(message, innerException)
    {
    }
}
