using System;
using System.Collections.Generic;
using System.Runtime.ExceptionServices;

namespace ThreadIterators;

/// <summary>
/// One level of a <see cref="CallStack"/>: the event a caller yields to call a sub-body, then the sub-body's place on
/// the stack, then where its value or its caught exception waits for the caller. Reused by every call made at its
/// depth, one after another; <see cref="Generation"/> tells them apart (the steps are in CallStack.cs).
/// </summary>
/// <remarks>The thread's running worker only, except the racy reads of the wait-for graph.</remarks>
internal sealed class CallFrame : Event
{
    private State _state;

    /// <summary>The value the sub-body returned, for a call made for one: a box per value type, kept to reuse.</summary>
    private ReturnedValue? _value;

    private ExceptionDispatchInfo? _fault;

    internal CallFrame(CallStack stack, int index)
    {
        Stack = stack;
        Index = index;
    }

    private enum State
    {
        /// <summary>Made, not yet yielded.</summary>
        Prepared,

        /// <summary>Its sub-body is on the stack.</summary>
        Running,

        /// <summary>Its sub-body has made <c>Event.Return</c>: the value is stored, the frame not yet popped.</summary>
        Returning,

        /// <summary>Returned: its value, if it was called for one, is in <see cref="_value"/>.</summary>
        Returned,

        /// <summary>Its sub-body ended with an exception, in <see cref="_fault"/> if the caller catches it.</summary>
        Faulted,
    }

    internal CallStack Stack { get; }

    /// <summary>Gets the frame's level: 1 for a call made by the outermost body.</summary>
    internal int Index { get; }

    /// <summary>Gets the sub-body while it is prepared or running; null after.</summary>
    internal IEnumerator<Event>? Body { get; private set; }

    /// <summary>Gets the number of calls made with this frame so far; a <c>Call</c> keeps the one it was made with.</summary>
    internal int Generation { get; private set; }

    /// <summary>Gets whether the caller wants a value (<c>Event.Call&lt;T&gt;</c>).</summary>
    internal bool WantsValue { get; private set; }

    /// <summary>Gets whether the caller catches the sub-body's exception (<c>Catch()</c>) instead of having it thrown at its yield.</summary>
    internal bool Catches { get; private set; }

    internal bool IsPrepared => _state == State.Prepared && Body is not null;

    /// <summary>Gets whether its sub-body has stored a value to return (<see cref="SetValue"/>).</summary>
    internal bool IsReturning => _state == State.Returning;

    /// <summary>Readies the frame for a new call (step 1 of CallStack.cs).</summary>
    internal void Prepare(IEnumerator<Event> body, bool wantsValue)
    {
        Generation++;
        Body = body;
        WantsValue = wantsValue;
        Catches = false;
        _fault = null;
        _value?.Clear();
        _state = State.Prepared;
    }

    /// <summary>Makes the call of <paramref name="generation"/> catch its sub-body's exception.</summary>
    internal void Catch(int generation)
    {
        Check(generation, "catch");
        if (_state != State.Prepared)
        {
            throw new InvalidOperationException($"{this} has already been yielded; call Catch() on a call before yielding it.");
        }

        Catches = true;
    }

    /// <summary>Gets the event to yield for the call of <paramref name="generation"/>, checking it is still this frame's.</summary>
    internal Event ToEvent(int generation)
    {
        Check(generation, "yield");
        return this;
    }

    internal void Start() => _state = State.Running;

    internal void Returned()
    {
        Body = null;
        _state = State.Returned;
    }

    internal void Faulted(ExceptionDispatchInfo? fault)
    {
        Body = null;
        _fault = fault;
        _state = State.Faulted;
    }

    /// <summary>Stores the value a sub-body returns (<c>Event.Return</c>), checking the caller asked for one of that type.</summary>
    internal void SetValue<TValue>(TValue value)
    {
        if (!WantsValue || _state is not (State.Running or State.Returning))
        {
            throw new InvalidOperationException(
                $"{CallStack.DescribeBody(Body!)} yielded Event.Return(value) on {Stack.Thread}, but its caller made the call with Event.Call, for no value; call it with Event.Call<T>, or end the sub-body with yield break.");
        }

        if (_value is ReturnedValue<TValue> same)
        {
            same.Set(value);
        }
        else if (_value is null || !_value.TrySet(value))
        {
            throw new InvalidOperationException(
                $"{CallStack.DescribeBody(Body!)} returned a {TypeNames.Of<TValue>()} on {Stack.Thread}, but its caller called it for a {(_value is null ? "value of another type" : TypeNames.Format(_value.Type))}.");
        }

        _state = State.Returning;
    }

    /// <summary>Keeps a box for the value of type <typeparamref name="T"/> the call just prepared wants.</summary>
    internal void Expect<T>()
    {
        if (_value is not ReturnedValue<T>)
        {
            // Once per depth and type: a thread that calls for the same type at the same depth reuses the box.
            _value = new ReturnedValue<T>();
        }
    }

    /// <summary>Gets the value the call of <paramref name="generation"/> returned, or throws the exception it caught.</summary>
    internal T Value<T>(int generation)
    {
        Outcome(generation);
        return ((ReturnedValue<T>)_value!).Value;
    }

    /// <summary>Gets the exception the call of <paramref name="generation"/> caught, or null if it returned.</summary>
    internal Exception? CaughtException(int generation)
    {
        Check(generation, "read");
        EnsureEnded();
        return _fault?.SourceException;
    }

    /// <summary>Throws the exception the call of <paramref name="generation"/> caught, if any.</summary>
    internal void Outcome(int generation)
    {
        Check(generation, "read");
        EnsureEnded();
        _fault?.Throw();
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        if (thread.Body != Stack || !Stack.Push(this))
        {
            thread.PendingFault = ExceptionDispatchInfo.Capture(new InvalidOperationException(
                Stack.Thread != thread
                    ? $"{thread} yielded {this}, a call made on {Stack.Thread}; a sub-body runs on the thread that made its call."
                    : $"{thread} yielded {this} twice, or yielded it after making a later call; yield each call once, right after making it."));
            return EventOutcome.Faulted;
        }

        // The worker steps the thread's call stack from now on, the sub-body first.
        return EventOutcome.Called;
    }

    internal override void DescribeWait(WaitDescription into) => into.Say($"a call of {(Body is { } body ? CallStack.DescribeBody(body) : "a sub-body")}");

    /// <inheritdoc/>
    public override string ToString() => $"the call of {(Body is { } body ? CallStack.DescribeBody(body) : "a sub-body")}";

    private void EnsureEnded()
    {
        if (_state is State.Prepared or State.Running or State.Returning)
        {
            throw new InvalidOperationException($"{this} on {Stack.Thread} has not returned yet; yield the call, then read its outcome.");
        }
    }

    private void Check(int generation, string what)
    {
        if (generation != Generation)
        {
            throw new InvalidOperationException(
                $"A call made on {Stack.Thread} was used ({what}) after a later call reused its place: read a call's result, or yield it, before making the next call from the same body.");
        }
    }
}
