using System;

namespace ThreadIterators;

/// <summary>
/// A call of a sub-body for no value, made by <see cref="Event.Call(System.Collections.Generic.IEnumerable{Event})"/>:
/// yield it (it converts to the <see cref="Event"/> the body yields), and the sub-body runs on the calling thread until
/// it ends.
/// </summary>
/// <remarks>
/// A value in the manner of a <see cref="System.Threading.Tasks.ValueTask"/>: made, yielded and read once, by the body
/// that made it, before it makes its next call; a later use throws an <see cref="InvalidOperationException"/>.
/// </remarks>
public readonly struct BodyCall : IEquatable<BodyCall>
{
    private readonly CallFrame? _frame;
    private readonly int _generation;

    internal BodyCall(CallFrame frame, int generation)
    {
        _frame = frame;
        _generation = generation;
    }

    /// <summary>
    /// Gets the exception the sub-body ended with, if the call was made to catch it (<see cref="Catch"/>); null if it
    /// ran to its end.
    /// </summary>
    /// <exception cref="InvalidOperationException">The call has not been yielded and returned yet, or a later call has reused its place.</exception>
    public Exception? Exception => Frame.CaughtException(_generation);

    private CallFrame Frame => _frame ?? throw new InvalidOperationException("This BodyCall was not made by Event.Call.");

    /// <summary>Converts the call to the event to yield.</summary>
    /// <param name="call">The call.</param>
    public static implicit operator Event(BodyCall call) => call.ToEvent();

    /// <summary>Determines whether two calls are the same call.</summary>
    /// <param name="left">A call.</param>
    /// <param name="right">Another call.</param>
    /// <returns>Whether they are the same.</returns>
    public static bool operator ==(BodyCall left, BodyCall right) => left.Equals(right);

    /// <summary>Determines whether two calls are different calls.</summary>
    /// <param name="left">A call.</param>
    /// <param name="right">Another call.</param>
    /// <returns>Whether they differ.</returns>
    public static bool operator !=(BodyCall left, BodyCall right) => !left.Equals(right);

    /// <summary>
    /// Makes the call catch the sub-body's exception: the caller resumes after its yield, and reads the exception from
    /// <see cref="Exception"/>, instead of ending there. Before the call is yielded.
    /// </summary>
    /// <returns>This call.</returns>
    /// <exception cref="InvalidOperationException">The call has been yielded already.</exception>
    public BodyCall Catch()
    {
        Frame.Catch(_generation);
        return this;
    }

    /// <summary>Gets the event to yield for this call.</summary>
    /// <returns>The event.</returns>
    public Event ToEvent() => Frame.ToEvent(_generation);

    /// <inheritdoc/>
    public bool Equals(BodyCall other) => _frame == other._frame && _generation == other._generation;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => obj is BodyCall other && Equals(other);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(_frame, _generation);

    /// <inheritdoc/>
    public override string ToString() => _frame?.ToString() ?? "an empty BodyCall";
}
