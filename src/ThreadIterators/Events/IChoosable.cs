using System;

namespace ThreadIterators;

/// <summary>
/// An event that may be a branch of a <see cref="Choice"/>: one whose wait can be looked at without parking,
/// registered alongside others, and withdrawn without effect. The branch protocol, whose steps are these, in this
/// order; <see cref="Choice"/> drives them, and each member below is one kind of step.
/// </summary>
/// <remarks>
/// <para>
/// The choice's state is one word: the wait's generation, a parked bit, and the chosen branch plus one (0 while none
/// is). The steps of one yield of a choice:
/// </para>
/// <list type="number">
/// <item>Look (<see cref="Event.Park"/> of the choice, on the yielding worker): the branches are looked at in turn,
/// from a position that moves on by one each wait, each with <see cref="TryCompleteNow"/>, which completes it (takes
/// the message, sends the put) or does nothing. The first that completes is the choice; nothing else was touched.
/// Branches that wait for time (<see cref="Event.Sleep(TimeSpan)"/>) are looked at after the others, so a message
/// already there wins over a deadline already passed.</item>
/// <item>Enlist: otherwise a new generation is armed (state = generation, no parked bit, none chosen) and each branch
/// is enlisted in the same order (<see cref="Enlist"/>): it registers to fire its <see cref="ChoiceBranch"/> for that
/// generation once it could complete, without taking anything. A branch that finds it could complete after all
/// registers nothing and is chosen at once; enlisting stops there, and also as soon as any branch has been
/// fired.</item>
/// <item>Fire (<see cref="ChoiceBranch.Fire"/>, any OS thread): a compare-and-swap from "this generation, none chosen"
/// to "this generation, branch i". A fire for another generation, or after a branch was chosen, does nothing: that is
/// how every late or losing wake-up is absorbed. If the parked bit was set, the winner makes the thread ready.
/// Wakers that may fire long after the wait is over carry the generation in a <see cref="ChoiceTicket"/>.</item>
/// <item>Park: the parker sets the parked bit with a compare-and-swap from "armed, none chosen". It fails only if a
/// branch was chosen while enlisting; the thread then goes on in the same turn (step 5) without parking.</item>
/// <item>Resolve (<see cref="Event.Resume"/> of the choice, or at once after step 4 failed; the worker that runs the
/// thread): every enlisted branch is withdrawn (<see cref="Withdraw"/>). A losing branch undoes all it did and passes
/// on any wake-up it was given (a shared-mailbox receiver's release, a waiting sender's room); the chosen one only
/// forgets its registration. Then the chosen branch completes (<see cref="CompleteChosen"/>). If it cannot (another
/// receiver took the message it was woken for, another sender the room), the choice waits again from step 1 with a
/// new generation.</item>
/// <item>Abandon (a disposal, or a stop that took the parked thread back): every enlisted branch is withdrawn as a
/// loser, the chosen one included, so its wake-up passes on.</item>
/// </list>
/// <para>
/// What each kind of branch registers, and how a late waker is kept from reaching a later wait: the header of
/// Choice.Waiting.cs; why a time branch's lazy timer entry is enough: the header of <see cref="TimeBranchTimer"/>.
/// </para>
/// <para>
/// Implemented explicitly by every event that may be a branch, so the members stay off the public surface of public
/// events; a choice holds its branches as this interface, so each step is one interface call. Each implementation
/// writes <see cref="CompleteChosen"/> out, even where it is <see cref="TryCompleteNow"/>: a default body here would
/// cost the choice's resolve a second interface call.
/// </para>
/// </remarks>
internal interface IChoosable
{
    /// <summary>
    /// Gets why this event cannot be a branch after all, or null (the default) if it can: for a kind of event that may
    /// be a branch in one mode only (a put made by <c>Put</c>, which sent at once). Read when a choice is built.
    /// </summary>
    string? NotChoosableBecause => null;

    /// <summary>
    /// Gets a value indicating whether this event may be given a timeout even where <see cref="NotChoosableBecause"/>
    /// keeps it out of a choice among other events: a put made by <c>Put</c> is the same wait with a deadline whether
    /// its message went in at the call (it completes at once, not timed out) or waits for room (a timeout sends
    /// nothing). Only the time branch competes with it, and no other event can win while its message is in.
    /// </summary>
    bool TimesOutAlone => false;

    /// <summary>
    /// Completes the event now if it can, with the effect a <see cref="Event.Park"/> that returned
    /// <see cref="EventOutcome.Continue"/> would have had (the message taken, the put sent); otherwise does nothing
    /// and returns <see cref="EventOutcome.Parked"/>. Never parks. Step 1; the worker running <paramref name="thread"/>.
    /// </summary>
    EventOutcome TryCompleteNow(GreenThread thread);

    /// <summary>
    /// Registers <paramref name="branch"/> to be fired, for wait <paramref name="generation"/>, once the event could
    /// complete, without taking anything. Returns false, registering nothing, if it could complete now. Step 2; on
    /// <paramref name="worker"/>, the worker running <paramref name="thread"/>, passed so that a registration counts
    /// its wait there without a look-up of the OS thread's context.
    /// </summary>
    bool Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker);

    /// <summary>
    /// Ends a registration made by <see cref="Enlist"/>. For a branch that lost (<paramref name="chosen"/> false) it
    /// undoes every effect: a wake-up it was given is passed on to the next waiter. Afterwards a late fire of the
    /// registration can only reach the generation it was made for. Steps 5 and 6; the worker running
    /// <paramref name="thread"/>, or the disposing thread.
    /// </summary>
    void Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen);

    /// <summary>
    /// Completes the event chosen by a choice, as <see cref="TryCompleteNow"/> does; <see cref="EventOutcome.Parked"/>
    /// if another party took what it was fired for, and the choice must wait again. Step 5; the worker running
    /// <paramref name="thread"/>.
    /// </summary>
    EventOutcome CompleteChosen(GreenThread thread);

    /// <summary>
    /// Gets why <paramref name="event"/> cannot be a branch of a choice or, with <paramref name="timeoutAlone"/>, be
    /// given a timeout (a choice of it and a sleep), or null if it can. For the messages of <see cref="Choice"/>'s
    /// constructor and <see cref="TimeoutExtensions.WithTimeout{TEvent}(TEvent, TimeSpan)"/>; not on a hot path.
    /// </summary>
    static string? WhyNot(Event @event, bool timeoutAlone = false) => @event switch
    {
        IChoosable { TimesOutAlone: true } when timeoutAlone => null,
        IChoosable choosable => choosable.NotChoosableBecause,
        Choice => "choices do not nest; list its branches in the outer choice instead",

        // The one generic event that is not a branch; told by its definition, as it has no non-generic type of its own.
        _ when @event.GetType() is { IsConstructedGenericType: true } type && type.GetGenericTypeDefinition() == typeof(TimedEvent<>) =>
            "it is a choice already; give the choice its event and an Event.Sleep branch instead",
        _ => "it is not a wait that can be withdrawn",
    };
}
