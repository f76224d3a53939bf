using System;
using System.Diagnostics;

namespace ThreadIterators;

/// <summary>
/// A wait with a timeout: completes when <see cref="Inner"/> does, or when <see cref="Timeout"/> has passed since the
/// thread began to wait, whichever is first; <see cref="TimedOut"/> then tells which. Erlang's
/// <c>receive ... after</c>, Go's <c>select</c> with <c>time.After</c>. Made by
/// <see cref="TimeoutExtensions.WithTimeout{TEvent}(TEvent, TimeSpan)"/>.
/// </summary>
/// <remarks>
/// <para>
/// A wait that times out has no effect: no message was taken (one that arrives later stays in the mailbox for the
/// next receive), a put did not send and holds no room, no credit was taken, and a wake-up the wait was given passes
/// to the next waiter. A task, a join or a pull wait has nothing to take back; a task goes on running (see
/// <see cref="Choice"/> for what a losing task event allows).
/// </para>
/// <para>
/// The deadline is counted from the moment the thread parks, after finding the event not ready; an event ready when
/// yielded completes at once, even with a zero timeout, which is therefore a poll. If the event became ready and the
/// deadline passed by the time the thread looks, the event wins. Time comes from the scheduler's
/// <see cref="SchedulerOptions.TimeProvider"/>.
/// </para>
/// <para>
/// Reusable, and meant to be: make it once, outside the loop, and yield it for every wait; a wait that does not time
/// out then allocates nothing and performs no timer operation. Like a <see cref="Choice"/>, it is bound to the first
/// green thread that yields it, and it cannot be a branch of a choice: give the choice an
/// <see cref="Event.Sleep(TimeSpan)"/> branch instead.
/// </para>
/// <example>
/// <code>
/// static IEnumerable&lt;Event&gt; Worker(Mailbox&lt;Job&gt; jobs)
/// {
///     var next = jobs.Recv().WithTimeout(TimeSpan.FromSeconds(30));
///     while (true)
///     {
///         yield return next;
///         if (next.TimedOut)
///         {
///             Console.WriteLine("idle for 30 s, stopping");
///             yield break;
///         }
///
///         next.Inner.Value.Run();
///     }
/// }
/// </code>
/// </example>
/// </remarks>
/// <typeparam name="TEvent">The kind of event waited on, so its result is read through <see cref="Inner"/> without a cast.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class TimedEvent<TEvent> : Event, IMessageWait
    where TEvent : Event
{
    /// <summary>The wait done without a choice, for the events that have one (a mailbox's receive); else null.</summary>
    private readonly TimedWait? _direct;

    /// <summary>Otherwise the event and the deadline, as a choice of two: its branch protocol does the work.</summary>
    private readonly Choice? _choice;

    internal TimedEvent(TEvent inner, TimeSpan timeout)
    {
        Inner = inner;
        Timeout = timeout;
        _direct = (inner as ITimedWaitSource)?.TimedWaitOf(this, timeout);
        if (_direct is null)
        {
            _choice = new Choice([inner, new SleepEvent(timeout)], timeoutAlone: true);
            _choice.DoesTheWorkOf(this);
        }
    }

    /// <summary>Gets the event waited on; after a wait that did not time out, its result is read here as usual.</summary>
    public TEvent Inner { get; }

    /// <inheritdoc/>
    bool IMessageWait.WaitsForMessage => Inner is IMessageWait { WaitsForMessage: true };

    /// <summary>Gets how long each wait lasts at most, or <see cref="System.Threading.Timeout.InfiniteTimeSpan"/>.</summary>
    public TimeSpan Timeout { get; }

    /// <summary>Gets a value indicating whether the last wait timed out; false before the first.</summary>
    public bool TimedOut => _direct is { } direct ? direct.TimedOut : _choice!.Index == 1;

    /// <inheritdoc/>
    public override string ToString() => $"{Inner}.WithTimeout({Timeout})";

    // In a trace, the event in its own trace words, and no result: a timed wait gives none of its own.
    internal override void DescribeWait(WaitDescription into)
    {
        if (into.ForTrace)
        {
            into.Trace($"{WaitDescription.TraceOf(Inner)}.WithTimeout({Timeout})");
            return;
        }

        Inner.DescribeWait(into);
        into.Say($", or a timeout of {Timeout}").Timer = true;
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker) =>
        _direct is { } direct ? direct.Park(thread, worker) : _choice!.Park(thread, worker);

    internal override EventOutcome Resume(GreenThread thread, Worker worker) =>
        _direct is { } direct ? direct.Resume(thread, worker) : _choice!.Resume(thread, worker);

    internal override void Abandon(GreenThread thread)
    {
        if (_direct is { } direct)
        {
            direct.Abandon(thread);
        }
        else
        {
            _choice!.Abandon(thread);
        }
    }

    internal override bool TryInterrupt(GreenThread thread) =>
        _direct is { } direct ? direct.TryInterrupt(thread) : _choice!.TryInterrupt(thread);

    internal override void CompleteInterrupt(GreenThread thread)
    {
        if (_direct is { } direct)
        {
            direct.CompleteInterrupt(thread);
        }
        else
        {
            _choice!.CompleteInterrupt(thread);
        }
    }
}
