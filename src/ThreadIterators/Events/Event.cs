using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// Something a green thread waits for. A green thread body yields an <see cref="Event"/> wherever it would block;
/// the scheduler parks the thread and resumes it right after the <c>yield return</c> once the event has completed.
/// Every event comes from the library: a mailbox's receive or put, another thread's exit (a join), a sleep, a yield,
/// a credit window's acquire, a pull source's offer and complete and its pullers' next batch, a task's completion,
/// and a cancellation token's cancellation; the remarks list each with what it waits for.
/// </summary>
/// <remarks>
/// <para>
/// User code cannot derive new kinds of event; that keeps the park/wake protocol, which every event must follow
/// exactly, inside the library. These are all the events a green thread can yield:
/// </para>
/// <list type="table">
/// <listheader>
/// <term>Yield</term>
/// <description>What it waits for</description>
/// </listheader>
/// <item>
/// <term><see cref="Mailbox{T}.Recv"/></term>
/// <description>
/// The next message of a <see cref="Mailbox{T}"/>, received by the one green thread that receives from it: parks
/// while the mailbox is empty, and after the thread resumes <see cref="ReceiveEvent{T}.Value"/> holds the message.
/// It is the mailbox's one <see cref="ReceiveEvent{T}"/>, the same object every time.
/// </description>
/// </item>
/// <item>
/// <term><see cref="SharedMailbox{T}.CreateReceiveEvent"/></term>
/// <description>
/// The next message of a <see cref="SharedMailbox{T}"/>, which several green threads receive from: parks while the
/// mailbox is empty, until a send wakes this receiver, and then <see cref="SharedReceiveEvent{T}.Value"/> holds the
/// message. Each call makes a new <see cref="SharedReceiveEvent{T}"/>, bound to the first thread that yields it;
/// that thread yields it for every message.
/// </description>
/// </item>
/// <item>
/// <term>
/// <see cref="Mailbox{T}.Put"/>, <see cref="SharedMailbox{T}.Put"/>, <see cref="Router{T}.Put"/>
/// (all <see cref="IMessageTarget{T}.Put"/>)
/// </term>
/// <description>
/// Room for a message in a full bounded mailbox: parks until a receiver has made room, then sends the message.
/// When there is room, or the mailbox is unbounded, the message is in before the event is yielded, and the event
/// completes at once. A router puts into the mailbox it picks. Yield the event right away.
/// </description>
/// </item>
/// <item>
/// <term><see cref="GreenThread.Exited"/></term>
/// <description>
/// The end of another green thread of the same scheduler (a join): parks until that thread has ended. If it ended
/// with an exception, the joining thread ends with the same exception.
/// </description>
/// </item>
/// <item>
/// <term><see cref="GreenThread.Ended"/></term>
/// <description>
/// The end of another green thread of the same scheduler, however it ended: parks until that thread has ended, and
/// never rethrows its fault; the joining thread reads <see cref="GreenThread.Outcome"/>.
/// </description>
/// </item>
/// <item>
/// <term><see cref="Sleep(TimeSpan)"/></term>
/// <description>Time: parks until the duration has passed, counted from the moment the event is yielded.</description>
/// </item>
/// <item>
/// <term><see cref="Yield"/></term>
/// <description>
/// A turn: gives the rest of this one to the other runnable green threads of the same worker, and resumes after
/// them.
/// </description>
/// </item>
/// <item>
/// <term><see cref="Never"/></term>
/// <description>Nothing: parks until the thread is stopped or its scheduler disposed, as Go's <c>select {}</c>.</description>
/// </item>
/// <item>
/// <term><see cref="CreditWindow.Acquire"/></term>
/// <description>
/// A credit of a <see cref="CreditWindow"/>, which a producer takes before each send: parks while none is
/// available, until a consumer calls <see cref="CreditWindow.Release"/>.
/// </description>
/// </item>
/// <item>
/// <term><see cref="PullSource{T}.Offer"/></term>
/// <description>
/// A consumer's request, for the producer of a <see cref="PullSource{T}"/> handing out one item: parks while no
/// request is outstanding; the item then goes into the batch of the oldest request, which goes to its consumer
/// once full.
/// </description>
/// </item>
/// <item>
/// <term><see cref="PullSource{T}.Complete"/></term>
/// <description>
/// Every consumer told of the end, for the producer of a <see cref="PullSource{T}"/> that has nothing more: sends the
/// partly filled batch, then parks until each connected <see cref="Puller{T}"/> has been told, which needs every
/// consumer to keep yielding <see cref="Puller{T}.Next"/> until its puller is completed.
/// </description>
/// </item>
/// <item>
/// <term><see cref="Puller{T}.Next"/></term>
/// <description>
/// The next batch, for a consumer of a <see cref="PullSource{T}"/>: hands the batch just read back to the producer
/// as a request and parks until a batch arrives; then <see cref="Puller{T}.Batch"/> holds it, or, at the end,
/// <see cref="Puller{T}.IsCompleted"/> is true.
/// </description>
/// </item>
/// <item>
/// <term>
/// <see cref="TaskEvent.For(System.Threading.Tasks.Task)"/>, <see cref="TaskEvent{T}.For(System.Threading.Tasks.Task{T})"/>,
/// their <see cref="System.Threading.Tasks.ValueTask"/> overloads, and <see cref="TaskEventExtensions.AsEvent(System.Threading.Tasks.Task)"/>
/// and its overloads
/// </term>
/// <description>
/// The completion of a <see cref="System.Threading.Tasks.Task"/>, <see cref="System.Threading.Tasks.Task{TResult}"/>,
/// <see cref="System.Threading.Tasks.ValueTask"/> or <see cref="System.Threading.Tasks.ValueTask{TResult}"/>, such as an
/// asynchronous read: parks until the task has completed, without blocking the worker, and resumes on a worker of the
/// thread's own scheduler; a task already completed does not park. Then <see cref="TaskEvent.GetResult"/> or
/// <see cref="TaskEvent{T}.Result"/> returns the outcome, or throws the task's exception as <c>await</c> would. A
/// <see cref="TaskEvent"/> or <see cref="TaskEvent{T}"/> is reusable, armed with <c>For</c> before each yield;
/// <c>AsEvent</c> makes a new one per call.
/// </description>
/// </item>
/// <item>
/// <term><see cref="WhenCanceled(CancellationToken)"/></term>
/// <description>
/// The cancellation of a <see cref="CancellationToken"/>: parks until the token is canceled, and resumes on a worker
/// of the thread's own scheduler, never on the OS thread that canceled it; a token canceled already does not park.
/// Usually a branch of a <see cref="Choice"/>, so that a wait for a message also ends when the token is canceled.
/// </description>
/// </item>
/// <item>
/// <term><c>TaskEvent.RunBlocking(function)</c>, <c>TaskEvent.RunBlocking(action)</c></term>
/// <description>
/// A blocking call, run on the thread pool: the task event of <see cref="Task.Run{TResult}(Func{TResult})"/>, so the
/// worker stays free while the call blocks a pool thread.
/// </description>
/// </item>
/// <item>
/// <term><see cref="ChannelEventExtensions.CreateReadEvent{T}(System.Threading.Channels.ChannelReader{T})"/>, <see cref="ChannelEventExtensions.CreateWriteEvent{T}(System.Threading.Channels.ChannelWriter{T})"/></term>
/// <description>
/// An item of a <see cref="System.Threading.Channels.ChannelReader{T}"/>, or room in a bounded
/// <see cref="System.Threading.Channels.ChannelWriter{T}"/>: reusable events that read or write only when they
/// complete, so they may be branches of a <see cref="Choice"/>; the worker stays free while they wait.
/// </description>
/// </item>
/// <item>
/// <term><see cref="Choice"/></term>
/// <description>The first of several of the events above to complete; <see cref="Choice.Index"/> says which.</description>
/// </item>
/// <item>
/// <term><see cref="TimeoutExtensions.WithTimeout{TEvent}(TEvent, TimeSpan)"/></term>
/// <description>
/// One of the events above, or a timeout, whichever comes first; <see cref="TimedEvent{TEvent}.TimedOut"/> says which.
/// </description>
/// </item>
/// </list>
/// <para>
/// An event may complete at once: a receive on a mailbox that already holds a message does not park at all, and the
/// thread goes on in the same turn.
/// </para>
/// <example>
/// <code>
/// static IEnumerable&lt;Event&gt; Forward(Mailbox&lt;int&gt; inbox, Mailbox&lt;int&gt; outbox)
/// {
///     while (true)
///     {
///         var message = inbox.Recv();
///         yield return message;          // parks until a message is there
///         outbox.Send(message.Value);
///     }
/// }
/// </code>
/// </example>
/// </remarks>
[SuppressMessage("Naming", "CA1716:Identifiers should not match keywords", Justification = "Event is the name the programming model is built on: threads yield events.")]
public abstract class Event
{
    private protected Event()
    {
    }

    /// <summary>
    /// Gets an event that gives the rest of the current turn to other runnable green threads of the same worker
    /// and resumes the yielding thread after them.
    /// </summary>
    public static Event Yield { get; } = new YieldEvent();

    /// <summary>
    /// Gets an event that never completes, as Go's <c>select {}</c>: a thread that yields it parks for good, until it
    /// is stopped (<see cref="GreenThread.Stop"/>) or its scheduler is disposed, which end it as they end any wait.
    /// </summary>
    /// <remarks>
    /// <para>
    /// For a thread whose work is all done by others (its handlers, its children) and that must stay alive until it is
    /// told to end, without a mailbox nobody sends to. The wait-for graph reports it as waiting on nothing, forever.
    /// </para>
    /// <para>
    /// As a branch of a <see cref="Choice"/> it is never chosen, so it may stand in for a branch that has nothing to
    /// wait on; and <c>Event.Never.WithTimeout(duration)</c> is a pure timeout, as a sleep would be. Shared by every
    /// thread and scheduler: it holds no state of any one wait.
    /// </para>
    /// </remarks>
    public static Event Never { get; } = new NeverEvent();

    /// <summary>Gets the longest sleep <see cref="Sleep(TimeSpan)"/> accepts: <see cref="int.MaxValue"/> milliseconds, about 24.8 days.</summary>
    public static TimeSpan MaxSleep { get; } = TimeSpan.FromMilliseconds(int.MaxValue);

    /// <summary>How messages state <see cref="MaxSleep"/>, in one place: 24.86 days, which rounding to one decimal would overstate.</summary>
    internal const string MaxSleepText = "Event.MaxSleep (int.MaxValue milliseconds, about 24.8 days)";

    /// <summary>Creates an event that resumes the yielding green thread once <paramref name="duration"/> has passed.</summary>
    /// <param name="duration">
    /// How long to sleep, counted from the moment the event is yielded. Zero behaves like <see cref="Yield"/>, and as
    /// a branch of a <see cref="Choice"/> completes at once unless another branch can.
    /// </param>
    /// <returns>A new event; yield it from a green thread.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="duration"/> is negative or longer than <see cref="MaxSleep"/>.</exception>
    public static Event Sleep(TimeSpan duration)
    {
        if (duration < TimeSpan.Zero || duration > MaxSleep)
        {
            throw new ArgumentOutOfRangeException(nameof(duration), duration, $"A sleep must last from zero to {MaxSleepText}; to wait longer, wait on a mailbox or a thread instead.");
        }

        return new SleepEvent(duration);
    }

    /// <summary>
    /// Creates an event that completes once <paramref name="cancellationToken"/> is canceled, so a green thread can
    /// wait for a cancellation as it waits for anything else: alone, or as a branch of a <see cref="Choice"/> beside a
    /// receive, a put, a join or a task.
    /// </summary>
    /// <remarks>
    /// <para>
    /// A token canceled already completes the event at once, without parking. Otherwise the thread parks, and the
    /// cancellation makes it ready on a worker of its own scheduler: the OS thread that cancels the token (which runs
    /// the token's callbacks inside <see cref="CancellationTokenSource.Cancel()"/>) only queues it, and never runs the
    /// body.
    /// </para>
    /// <para>
    /// A token that can never be canceled (<see cref="CancellationToken.None"/>, <c>default</c>) is accepted and
    /// registers nothing: alone, the event waits until the thread is stopped or its scheduler disposed; as a branch it
    /// never completes, so a method with an optional token can put it in its choice whatever the caller passed.
    /// </para>
    /// <para>
    /// Reusable: build it once, outside the loop, and yield it (or the choice it is a branch of) for every wait. Each
    /// wait registers a callback with the token; a wait that ends another way (another branch chosen, the thread
    /// stopped, its scheduler disposed) removes it, without waiting for a callback already running. The event is
    /// bound to the first green thread that yields it; another thread that yields it is faulted.
    /// </para>
    /// </remarks>
    /// <param name="cancellationToken">The token to wait on.</param>
    /// <returns>A new event; yield it, or make it a branch of a <see cref="Choice"/>.</returns>
    /// <example>
    /// A thread that serves requests until its token is canceled:
    /// <code>
    /// static IEnumerable&lt;Event&gt; Serve(Mailbox&lt;string&gt; requests, CancellationToken token)
    /// {
    ///     var next = new Choice(requests.Recv(), Event.WhenCanceled(token));
    ///     while (true)
    ///     {
    ///         yield return next;
    ///         if (next.Index == 1)
    ///         {
    ///             yield break;                  // Canceled; unread requests stay in the mailbox.
    ///         }
    ///
    ///         Console.WriteLine(requests.Recv().Value);
    ///     }
    /// }
    /// </code>
    /// </example>
    public static Event WhenCanceled(CancellationToken cancellationToken) => new CancellationEvent(cancellationToken);

    /// <summary>
    /// Makes a call of a sub-body, for the calling green thread to yield: the sub-body then runs on this thread, as the
    /// rest of its body, until it ends; and the caller goes on after its yield. A helper that waits is written as an
    /// iterator of its own and called with this, as an awaited method would be.
    /// </summary>
    /// <param name="body">The sub-body: an iterator of events, as a green thread's body is.</param>
    /// <returns>The call; yield it once, right away, from the body that made it.</returns>
    /// <remarks>
    /// <para>
    /// An exception from the sub-body is thrown at the caller's yield: the caller ends there, its <c>finally</c> blocks
    /// running, and the exception goes on to its own caller, up to the thread's body, which it ends as any fault does.
    /// A C# iterator cannot catch at a yield; to handle the exception, call <see cref="BodyCall.Catch"/> on
    /// the call before yielding it, and read <see cref="BodyCall.Exception"/> after.
    /// </para>
    /// <para>
    /// A stop, the wait-for graph (<see cref="ThreadWait.Calls"/>) and exploration see through calls: a stop ends every
    /// body of the stack, the innermost first. Calls nest as deep as memory allows, at no OS stack depth. A call
    /// allocates nothing beyond the sub-body's enumerator, once the thread has made a call at that depth before.
    /// </para>
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="body"/> is null.</exception>
    /// <exception cref="InvalidOperationException">Called outside a green thread's body.</exception>
    /// <example>
    /// <code>
    /// IEnumerable&lt;Event&gt; Client(Mailbox&lt;int&gt; numbers)
    /// {
    ///     yield return Event.Call(Log(numbers, 3));    // runs Log to its end, on this thread
    /// }
    ///
    /// IEnumerable&lt;Event&gt; Log(Mailbox&lt;int&gt; numbers, int count)
    /// {
    ///     for (var i = 0; i &lt; count; i++)
    ///     {
    ///         yield return numbers.Recv();
    ///         Console.WriteLine(numbers.Recv().Value);
    ///     }
    /// }
    /// </code>
    /// </example>
    public static BodyCall Call(IEnumerable<Event> body)
    {
        var (frame, generation) = PrepareCall(body, wantsValue: false);
        return new BodyCall(frame, generation);
    }

    /// <summary>
    /// Makes a call of a sub-body that returns a value of type <typeparamref name="T"/> by yielding
    /// <see cref="Return{TValue}(TValue)"/>: yield the call, then read <see cref="BodyCall{T}.Result"/>.
    /// </summary>
    /// <typeparam name="T">The type of the value the sub-body returns.</typeparam>
    /// <param name="body">The sub-body: an iterator of events that ends by yielding <c>Event.Return(value)</c>.</param>
    /// <returns>The call; yield it once, right away, then read its result before the body makes its next call.</returns>
    /// <remarks>
    /// As <see cref="Call(IEnumerable{Event})"/>; a sub-body that ends without returning a value faults with an
    /// <see cref="InvalidOperationException"/> that names it. A call is a value in the manner of a
    /// <see cref="ValueTask{TResult}"/>: the place it keeps its result is reused by the next call made from the same
    /// body, so read the result before making that call.
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="body"/> is null.</exception>
    /// <exception cref="InvalidOperationException">Called outside a green thread's body.</exception>
    /// <example>
    /// <code>
    /// IEnumerable&lt;Event&gt; Sum(Mailbox&lt;int&gt; numbers)
    /// {
    ///     var pair = Event.Call&lt;int&gt;(ReceiveTwo(numbers));
    ///     yield return pair;
    ///     Console.WriteLine(pair.Result);
    /// }
    ///
    /// IEnumerable&lt;Event&gt; ReceiveTwo(Mailbox&lt;int&gt; numbers)
    /// {
    ///     yield return numbers.Recv();
    ///     var first = numbers.Recv().Value;
    ///     yield return numbers.Recv();
    ///     yield return Event.Return(first + numbers.Recv().Value);
    /// }
    /// </code>
    /// </example>
    public static BodyCall<T> Call<T>(IEnumerable<Event> body)
    {
        var (frame, generation) = PrepareCall(body, wantsValue: true);
        frame.Expect<T>();
        return new BodyCall<T>(frame, generation);
    }

    /// <summary>
    /// Returns <paramref name="value"/> from a sub-body to the caller that made its call with
    /// <see cref="Call{T}(IEnumerable{Event})"/>: yield it, and the sub-body ends there, its <c>finally</c> blocks
    /// running, as a <c>return</c> in a method runs them.
    /// </summary>
    /// <typeparam name="TValue">The type of the value: the type the call was made for, or one assignable to it.</typeparam>
    /// <param name="value">The value.</param>
    /// <returns>The event to yield.</returns>
    /// <exception cref="InvalidOperationException">
    /// Called outside a sub-body, in one called for no value, or with a value the call was not made for.
    /// </exception>
    public static Event Return<TValue>(TValue value)
    {
        if (CallStack.Stepping is not { Depth: > 0 } stack)
        {
            var thread = GreenThread.Current
                ?? throw new InvalidOperationException("Event.Return(value) returns from a sub-body; call it in a body run by Event.Call<T>, on its green thread.");
            throw new InvalidOperationException($"{thread} made Event.Return(value) outside a sub-body; only a body run by Event.Call<T> returns a value.");
        }

        stack.Top.SetValue(value);
        return ReturnEvent.Instance;
    }

    private static (CallFrame Frame, int Generation) PrepareCall(IEnumerable<Event> body, bool wantsValue)
    {
        ArgumentNullException.ThrowIfNull(body);

        // The stack whose step runs this body; else (the thread's first call, or a body its worker steps directly in
        // the turn of that call) the running thread's.
        var stack = CallStack.Stepping ?? (GreenThread.Current
            ?? throw new InvalidOperationException("Event.Call runs a sub-body on the calling green thread: make the call in a green thread's body, and yield it.")).CallStack;
        var frame = stack.Prepare(body.GetEnumerator() ?? throw new InvalidOperationException($"{body} returned a null enumerator."), wantsValue);
        return (frame, frame.Generation);
    }

    // The hooks every event knows: the wait (Park, Resume, Abandon), a stop from outside (TryInterrupt,
    // CompleteInterrupt) and the wait-for graph and traces (DescribeWait). What only some events do is an interface
    // they implement: IChoosable, to be a choice's branch (its header holds the branch protocol's steps),
    // ITimedWaitSource, to wait with a timeout without a choice, and IMessageWait, to say it waits for a message.

    /// <summary>
    /// Called on <paramref name="worker"/>, which runs <paramref name="thread"/>, right after the thread yielded this event.
    /// </summary>
    /// <remarks>
    /// On <see cref="EventOutcome.Parked"/> the event has taken responsibility for waking the thread exactly once
    /// (through <see cref="Scheduler.Ready(GreenThread)"/>); from that moment another worker may already be running it, so the
    /// caller must not touch the thread again.
    /// </remarks>
    internal abstract EventOutcome Park(GreenThread thread, Worker worker);

    /// <summary>
    /// Called on <paramref name="worker"/>, which resumes a thread this event parked, before the thread's body continues.
    /// </summary>
    internal virtual EventOutcome Resume(GreenThread thread, Worker worker) => EventOutcome.Continue;

    /// <summary>
    /// Called on the disposing thread for a thread that was parked on this event when its scheduler was disposed,
    /// so the event can forget it.
    /// </summary>
    internal virtual void Abandon(GreenThread thread)
    {
    }

    // Stopping a thread from outside (GreenThread.Stop; docs/architecture.md, "Stopping a thread"). Every kind of
    // event a thread can park on overrides TryInterrupt; the default, for the events a thread never parks on with a
    // wake-up owed by someone else (a yield, a deferred park), finds nothing to take back.

    /// <summary>
    /// Takes back the one wake-up this event owes <paramref name="thread"/> if the thread is parked on it in a plain
    /// wait (not as a choice's branch), undoing the wait without effect: nothing taken, nothing sent, nothing held.
    /// True if this call took it: then nothing else will make the thread ready. False if the thread is not parked here
    /// (it runs, parks on something else, or has ended), or a waker took the wake-up first.
    /// </summary>
    /// <remarks>
    /// Any thread, at any moment: the thread may be running, parking on this very event, or ended, and its wakers may
    /// be at work. So an override takes only a registration that is the thread's own, with the compare-and-swap or
    /// under the lock its wakers use; and it synchronizes with the park through that same word or lock, so that either
    /// it finds the park or the parking worker, which looks at <see cref="GreenThread.PendingFault"/> after every
    /// park, finds the stop.
    /// </remarks>
    internal virtual bool TryInterrupt(GreenThread thread) => false;

    /// <summary>
    /// Finishes a wait <see cref="TryInterrupt"/> took back, where that needs the thread's own side: a choice
    /// withdraws its branches, a put forgets its wait. The worker that runs the stopped thread, or the disposing thread.
    /// </summary>
    internal virtual void CompleteInterrupt(GreenThread thread)
    {
    }

    /// <summary>
    /// Says what a thread parked on this event waits for, and on whom (<see cref="WaitDiagnostics.GetWaitGraph"/>); or, when
    /// <see cref="WaitDescription.ForTrace"/>, only its words in a driven run's trace and what a completed wait gave
    /// (<see cref="WaitDescription.Trace"/>, <see cref="WaitDescription.Gave"/>), skipping the graph's work. For the
    /// graph: any OS thread, while the thread may be woken, so it reads only, and nothing that a concurrent wake-up
    /// could make throw. For a trace: the worker that ran the thread, right after its turn. The default, for events
    /// that do not park for long (a yield, a deferred park), is the event's name, and the same in a trace.
    /// </summary>
    internal virtual void DescribeWait(WaitDescription into)
    {
        if (!into.ForTrace)
        {
            into.Say(ToString()!);
        }
    }
}
