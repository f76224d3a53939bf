using System;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>A message target of the user's own whose every send throws <see cref="Thrown"/>: timers must survive it.</summary>
/// <remarks>Any thread.</remarks>
internal sealed class ThrowingTarget<T> : IMessageTarget<T>
{
    /// <summary>Gets the exception every send throws.</summary>
    internal InvalidOperationException Thrown { get; } = new("a target that always throws");

    /// <summary>Gets how many sends were tried.</summary>
    internal int Tries => Volatile.Read(ref _tries);

    private int _tries;

    public void Send(T message) => throw Counted();

    public bool TrySend(T message) => throw Counted();

    public ValueTask SendAsync(T message, CancellationToken cancellationToken = default) => throw Counted();

    public Event Put(T message) => throw Counted();

    public override string ToString() => "a throwing target";

    private InvalidOperationException Counted()
    {
        Interlocked.Increment(ref _tries);
        return Thrown;
    }
}
