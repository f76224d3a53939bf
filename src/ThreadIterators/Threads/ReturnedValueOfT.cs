using System;

namespace ThreadIterators;

/// <summary>A call's returned value of type <typeparamref name="T"/>, unboxed; reused by every call at its depth for that type.</summary>
internal sealed class ReturnedValue<T> : ReturnedValue
{
    internal T Value { get; private set; } = default!;

    internal override Type Type => typeof(T);

    internal void Set(T value) => Value = value;

    internal override bool TrySet<TValue>(TValue value)
    {
        if (value is T typed)
        {
            Value = typed;
            return true;
        }

        // A null fits any reference or nullable type asked for.
        if (value is null && default(T) is null)
        {
            Value = default!;
            return true;
        }

        return false;
    }

    internal override void Clear() => Value = default!;
}
