using System;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// <see cref="Event.WhenCanceled(CancellationToken)"/>: completes once its token is canceled. Each wait registers a
/// callback with the token, which makes the thread ready (or fires its choice's branch) from whatever OS thread
/// cancels the token; the body never runs there.
/// </summary>
/// <remarks>
/// The worker running the bound thread parks, enlists and withdraws. Three parties may try to take
/// <see cref="_waiter"/>: the token's callback (any OS thread, inside <c>Cancel</c>), a stop or a disposal (any thread),
/// and a choice's withdrawal (the thread's worker); an exchange or a compare-and-swap decides, so exactly one does.
/// </remarks>
internal sealed class CancellationEvent : Event
{
    /// <summary>Left in <see cref="_waiter"/> by the callback: the token has been canceled.</summary>
    private static readonly object s_canceled = new();

    /// <summary>The callback every wait registers; its state is the event, so a registration allocates nothing of ours.</summary>
    private static readonly Action<object?> s_onCanceled = state => ((CancellationEvent)state!).OnCanceled();

    /// <summary>The token waited on.</summary>
    private readonly CancellationToken _token;

    /// <summary>The green thread bound to the event by its first yield.</summary>
    private GreenThread? _owner;

    /// <summary>
    /// What the callback wakes: the parked thread, or the <see cref="ChoiceTicket"/> of a choice waiting on the token;
    /// null while nothing waits; <see cref="s_canceled"/> once a callback has run. A wait publishes it only after
    /// storing its registration, so whoever takes it back may read <see cref="_registration"/>.
    /// </summary>
    private object? _waiter;

    /// <summary>The registration of the current (or last) wait. Written by the worker parking the thread.</summary>
    private CancellationTokenRegistration _registration;

    internal CancellationEvent(CancellationToken token) => _token = token;

    /// <inheritdoc/>
    internal override string? NotChoosableBecause => null;

    /// <inheritdoc/>
    public override string ToString() => _token.IsCancellationRequested
        ? "Event.WhenCanceled(a canceled token)"
        : _token.CanBeCanceled ? "Event.WhenCanceled(token)" : "Event.WhenCanceled(a token that is never canceled)";

    internal override void DescribeWait(WaitDescription into) => into.Say($"a cancellation token to be canceled, outside the scheduler ({this})").Outside = true;

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        Bind(thread);
        return Register(thread) ? EventOutcome.Parked : EventOutcome.Continue;
    }

    // Woken only by the callback, which runs once the token is canceled: nothing to take.
    internal override EventOutcome Resume(GreenThread thread, Worker worker) => EventOutcome.Continue;

    internal override void Abandon(GreenThread thread) => TryTakeBack(thread);

    internal override bool TryInterrupt(GreenThread thread) => TryTakeBack(thread);

    internal override EventOutcome TryCompleteNow(GreenThread thread)
    {
        Bind(thread);
        return _token.IsCancellationRequested ? EventOutcome.Continue : EventOutcome.Parked;
    }

    internal override bool Enlist(GreenThread thread, ChoiceBranch branch, long generation) =>
        Register(new ChoiceTicket(branch, generation));

    internal override void Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen)
    {
        // Chosen or not, the registration goes. Unregister does not wait for a callback that is running (Dispose would,
        // blocking this worker on the canceling thread): such a callback either finds the ticket gone or took it
        // first, and then its fire reaches a wait that is over, or the branch it chose.
        if (Volatile.Read(ref _waiter) is ChoiceTicket ticket && Interlocked.CompareExchange(ref _waiter, null, ticket) == ticket)
        {
            _registration.Unregister();
        }
    }

    /// <summary>
    /// Registers <paramref name="waiter"/> to be woken when the token is canceled; false, with nothing left
    /// registered, if it already is. A token that can never be canceled registers nothing and leaves the waiter to
    /// wait for good. The worker running the bound thread.
    /// </summary>
    private bool Register(object waiter)
    {
        if (_token.IsCancellationRequested)
        {
            return false;
        }

        if (_token.CanBeCanceled)
        {
            // Runs the callback right here if the token was canceled since the look above: it finds no waiter yet, leaves
            // the canceled mark, and the swap below fails.
            _registration = _token.UnsafeRegister(s_onCanceled, this);
        }

        // Published after the registration is stored, with a full fence: from here the callback or a stop may take it.
        return Interlocked.CompareExchange(ref _waiter, waiter, null) is null;
    }

    /// <summary>Takes the parked <paramref name="thread"/> back from the callback and unregisters; true if this call took it. Any thread.</summary>
    private bool TryTakeBack(GreenThread thread)
    {
        if (Interlocked.CompareExchange(ref _waiter, null, thread) != thread)
        {
            return false;
        }

        _registration.Unregister();
        return true;
    }

    /// <summary>The token's callback, on the canceling OS thread: queues the parked thread on its own scheduler, or fires the branch.</summary>
    private void OnCanceled()
    {
        switch (Interlocked.Exchange(ref _waiter, s_canceled))
        {
            case GreenThread thread:
                thread.Scheduler.Ready(thread);
                break;
            case ChoiceTicket ticket:
                ticket.Fire();
                break;
        }
    }

    private void Bind(GreenThread thread)
    {
        if (_owner == thread)
        {
            return;
        }

        var owner = Interlocked.CompareExchange(ref _owner, thread, null);
        if (owner is not null && owner != thread)
        {
            throw new InvalidOperationException($"{thread} yielded {this}, which belongs to {owner}; the event is bound to the first green thread that yields it, so give each thread its own Event.WhenCanceled(token).");
        }
    }
}
