using System;

namespace ThreadIterators;

/// <summary>A call's returned value, whatever its type: what a <see cref="CallFrame"/> keeps to reuse.</summary>
internal abstract class ReturnedValue
{
    /// <summary>Gets the type the caller asked for.</summary>
    internal abstract Type Type { get; }

    /// <summary>Stores <paramref name="value"/> if it is of the type asked for (a derived type, say); false if not.</summary>
    internal abstract bool TrySet<TValue>(TValue value);

    /// <summary>Lets go of the last value, so a frame kept for reuse holds no object alive.</summary>
    internal abstract void Clear();
}
