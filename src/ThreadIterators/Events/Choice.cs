using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;
using System.Diagnostics;
using System.Linq;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// An event that completes when the first of several events completes, and tells which: Go's <c>select</c>,
/// Erlang's <c>receive</c> over several patterns, CCR's <c>Arbiter.Choice</c>. After the thread resumes, <see cref="Index"/> is the
/// position of the branch that completed, and that branch's own result is read as usual (a receive's
/// <c>Value</c>, a task event's <c>Result</c>).
/// </summary>
/// <remarks>
/// <para>
/// Exactly one branch completes per wait. The others are withdrawn without effect: no message is taken from a
/// losing mailbox (it stays for the next receive), a losing put sends nothing and holds no room, a losing credit
/// acquire takes no credit, and a wake-up a losing branch was given passes to the next waiter in line.
/// </para>
/// <para>
/// Branches: a mailbox's <see cref="Mailbox{T}.Recv"/>, a shared mailbox's receive event, a
/// <see cref="PutEvent{T}"/> made by <c>CreatePutEvent</c> (not the event <c>Put</c> returns, which sends at once
/// when there is room), a thread's <see cref="GreenThread.Exited"/> or <see cref="GreenThread.Ended"/>, a
/// <see cref="TaskEvent"/> or <see cref="TaskEvent{T}"/>, a <see cref="CreditWindow.Acquire"/>, a pull source's
/// <see cref="PullSource{T}.Offer"/> and <see cref="PullSource{T}.Complete"/> and a puller's
/// <see cref="Puller{T}.Next"/>, a cancellation token's
/// <see cref="Event.WhenCanceled(System.Threading.CancellationToken)"/> (which ends any of these waits when the token
/// is canceled), and <see cref="Event.Sleep(TimeSpan)"/>: a deadline that long after the thread parks, looked at
/// after every other branch, so a message already there wins over a deadline already passed; and
/// <see cref="Event.Never"/>, which is never chosen. Any mix of message
/// types. A choice refuses, when it is built, an event that cannot be withdrawn (naming it and why). For a single
/// wait with a timeout, <see cref="TimeoutExtensions.WithTimeout{TEvent}(TEvent, TimeSpan)"/> is shorter.
/// </para>
/// <para>
/// A thread stopped (<see cref="GreenThread.Stop"/>) while parked on a choice has every branch withdrawn, as if
/// another branch had won.
/// </para>
/// <para>
/// A branch may be switched off between waits (<see cref="Disable"/>) and on again (<see cref="Enable"/>), as Go's
/// <c>select</c> leaves out a nil channel: a disabled branch is neither looked at nor registered with, so a message in
/// its mailbox stays there and an unarmed put is never yielded. A choice whose every branch is disabled waits until its
/// thread is stopped or its scheduler disposed, as <see cref="Event.Never"/> does; <see cref="Event.Never"/> may also be
/// a branch, one that is never chosen.
/// </para>
/// <para>
/// Which branch, when several could complete at once: the choice looks at the branches in turn, starting one
/// further along at each wait (round robin), so a branch that is always ready does not starve the others. While the
/// thread is parked, the first branch whose waker arrives wins.
/// </para>
/// <para>
/// Reusable, and meant to be: build it once, outside the loop, and yield it for every wait. Waiting on a choice of
/// mailbox receives allocates nothing. A choice is bound to the first green thread that yields it, as a mailbox is
/// bound to its receiver; another thread that yields it is faulted.
/// </para>
/// <example>
/// A thread that serves two mailboxes of different types until its helper thread ends:
/// <code>
/// static IEnumerable&lt;Event&gt; Serve(Mailbox&lt;string&gt; commands, Mailbox&lt;int&gt; numbers, GreenThread helper)
/// {
///     var choice = new Choice(commands.Recv(), numbers.Recv(), helper.Ended);
///     while (true)
///     {
///         yield return choice;
///         switch (choice.Index)
///         {
///             case 0: Console.WriteLine($"command {commands.Recv().Value}"); break;
///             case 1: Console.WriteLine($"number {numbers.Recv().Value}"); break;
///             default: Console.WriteLine($"{helper} ended: {helper.Outcome}"); yield break;
///         }
///     }
/// }
/// </code>
/// </example>
/// </remarks>
[DebuggerDisplay("{ToString(),nq}")]
public sealed partial class Choice : Event, IMessageWait
{
    /// <summary>The most branches a choice may have: one bit each in <see cref="_enlisted"/>.</summary>
    public const int MaxBranches = 64;

    /// <summary>In <see cref="_state"/>: the chosen branch's index plus one, or 0 while none is.</summary>
    private const long ChosenMask = 0x7F;

    /// <summary>In <see cref="_state"/>: the thread has parked, so the waker that chooses a branch must make it ready.</summary>
    private const long ParkedBit = 0x80;

    /// <summary>
    /// In <see cref="_state"/>'s chosen bits: no branch, but a stop took the parked thread back. Above any branch's
    /// index plus one, and not zero, so every later fire finds the wait decided.
    /// </summary>
    private const long StoppedChoice = ChosenMask;

    /// <summary>The generation sits above the chosen index and the parked bit.</summary>
    private const int GenerationShift = 8;

    /// <summary>The branches, as given.</summary>
    private readonly Event[] _branches;

    /// <inheritdoc/>
    bool IMessageWait.WaitsForMessage => Array.Exists(_branches, static b => b is IMessageWait { WaitsForMessage: true });

    /// <summary>The same branches as the protocol's participants (<see cref="IChoosable"/>), so each step on one is one interface call.</summary>
    private readonly IChoosable[] _choosables;

    /// <summary>The registration each branch's event fires; one per branch, made here.</summary>
    private readonly ChoiceBranch[] _handles;

    /// <summary>Branch indexes in the order a wait looks at them: the rotating ones first, from <see cref="_next"/> on, then those that wait for time.</summary>
    private readonly int[] _order;

    /// <summary>How many branches are not sleeps; they come first in <see cref="_order"/> and take turns at being first.</summary>
    private readonly int _rotating;

    /// <summary>
    /// The current wait's generation (above <see cref="GenerationShift"/>), the parked bit, and the chosen branch
    /// plus one. The owner arms it; wakers choose a branch with a compare-and-swap, so exactly one wins a wait.
    /// </summary>
    private long _state;

    /// <summary>The last generation armed; owner only, read by wakers through <see cref="CurrentGeneration"/>.</summary>
    private long _generation;

    /// <summary>The green thread the choice is bound to; set by its first yield.</summary>
    private GreenThread? _owner;

    /// <summary>
    /// The controller of the owner's scheduler in a driven run, else null; set with the owner, so that a wait reads one
    /// field, not the thread's scheduler's. Owner only.
    /// </summary>
    private IRunController? _controller;

    /// <summary>The branches registered by the current wait, one bit each. Owner only.</summary>
    private ulong _enlisted;

    /// <summary>
    /// The branches a wait looks at and enlists, one bit each: all of them until <see cref="Disable"/> clears one. Read
    /// once per wait, so a choice whose branches are all enabled pays a bit test per branch for it. Written only
    /// between waits (<see cref="SetEnabled"/>).
    /// </summary>
    private ulong _enabled;

    /// <summary>The position in <see cref="_order"/> the next wait starts at. Owner only.</summary>
    private int _next;

    /// <summary>The event this choice does the work of, if it is not used on its own (a <see cref="TimedEvent{TEvent}"/>); messages name it.</summary>
    private Event? _wrapper;

    /// <summary>Initializes a choice among <paramref name="branches"/>.</summary>
    /// <param name="branches">The events to wait on, 1 to <see cref="MaxBranches"/>, each at most once.</param>
    /// <exception cref="ArgumentNullException"><paramref name="branches"/> or one of them is null.</exception>
    /// <exception cref="ArgumentException">
    /// There are none or too many, one appears twice, or one cannot be withdrawn (the message names it and why).
    /// </exception>
    public Choice(params Event[] branches)
        : this(branches, timeoutAlone: false)
    {
    }

    /// <summary>Initializes a choice; <paramref name="timeoutAlone"/> for the choice of a <see cref="TimedEvent{TEvent}"/>, an event and its deadline.</summary>
    internal Choice(Event[] branches, bool timeoutAlone)
    {
        ArgumentNullException.ThrowIfNull(branches);
        if (branches.Length is 0 or > MaxBranches)
        {
            throw new ArgumentException($"A choice has from 1 to {MaxBranches} branches, not {branches.Length}.", nameof(branches));
        }

        _branches = (Event[])branches.Clone();
        _enabled = ulong.MaxValue >> (MaxBranches - _branches.Length);
        _choosables = new IChoosable[_branches.Length];
        _handles = new ChoiceBranch[_branches.Length];
        _order = new int[_branches.Length];
        var timed = new List<int>();
        for (var i = 0; i < _branches.Length; i++)
        {
            var branch = _branches[i] ?? throw new ArgumentNullException(nameof(branches), $"Branch {i} of the choice is null.");
            if (IChoosable.WhyNot(branch, timeoutAlone) is { } reason)
            {
                throw new ArgumentException($"Branch {i} of the choice, {branch}, cannot be a branch: {reason}.", nameof(branches));
            }

            if (Array.IndexOf(_branches, branch, 0, i) is var first and >= 0)
            {
                throw new ArgumentException($"Branches {first} and {i} of the choice are the same event, {branch}; a choice waits on each event once.", nameof(branches));
            }

            _choosables[i] = (IChoosable)branch;
            _handles[i] = new ChoiceBranch(this, i);

            // A sleep is the one branch that waits for time: looked at after the others (IChoosable, step 1).
            if (branch is SleepEvent)
            {
                timed.Add(i);
            }
            else
            {
                _order[_rotating++] = i;
            }
        }

        timed.CopyTo(_order, _rotating);
        Branches = new ReadOnlyCollection<Event>(_branches);

    }

    /// <summary>Gets the branches, in the order given.</summary>
    public IReadOnlyList<Event> Branches { get; }

    /// <summary>Gets the position in <see cref="Branches"/> of the branch that completed the last wait, or -1 before any has.</summary>
    public int Index { get; private set; } = -1;

    /// <summary>Gets the branch that completed the last wait, or null before any has.</summary>
    public Event? Chosen => Index < 0 ? null : _branches[Index];

    /// <summary>
    /// Switches branch <paramref name="index"/> off: later waits neither look at it nor register with it, so it is
    /// never chosen, whatever it could complete with, as a nil channel in Go's <c>select</c>. A message waiting in its
    /// mailbox stays there, in order, for a later receive. A choice whose every branch is disabled waits until its
    /// thread is stopped or its scheduler disposed. Disabling a disabled branch does nothing.
    /// </summary>
    /// <remarks>
    /// Between yields, by the thread that yields the choice (or by any code before the choice is first yielded); it
    /// takes effect at the next yield. A wait reads the enabled branches once, as a mask, and tests a bit per branch.
    /// </remarks>
    /// <param name="index">The branch's position in <see cref="Branches"/>.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative, or not less than the number of branches.</exception>
    /// <exception cref="InvalidOperationException">A thread is parked on the choice.</exception>
    /// <example>
    /// Go's nil-channel idiom: a forwarder that always receives, and offers to send only while it holds something.
    /// <code>
    /// var pending = new Queue&lt;int&gt;();
    /// var put = output.CreatePutEvent();
    /// var choice = new Choice(input.Recv(), put);
    /// while (true)
    /// {
    ///     if (pending.Count == 0) { choice.Disable(1); } else { choice.Enable(1); put.For(pending.Peek()); }
    ///     yield return choice;
    ///     if (choice.Index == 0) { pending.Enqueue(input.Recv().Value); } else { pending.Dequeue(); }
    /// }
    /// </code>
    /// </example>
    public void Disable(int index) => SetEnabled(index, enabled: false, nameof(Disable));

    /// <summary>
    /// Switches branch <paramref name="index"/> back on, after <see cref="Disable"/>: later waits look at it and
    /// register with it again. Enabling an enabled branch does nothing.
    /// </summary>
    /// <remarks>Between yields, by the thread that yields the choice, as <see cref="Disable"/>; it takes effect at the next yield.</remarks>
    /// <param name="index">The branch's position in <see cref="Branches"/>.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative, or not less than the number of branches.</exception>
    /// <exception cref="InvalidOperationException">A thread is parked on the choice.</exception>
    public void Enable(int index) => SetEnabled(index, enabled: true, nameof(Enable));

    /// <summary>Gets a value indicating whether branch <paramref name="index"/> takes part in the next wait: true unless <see cref="Disable"/> switched it off.</summary>
    /// <param name="index">The branch's position in <see cref="Branches"/>.</param>
    /// <returns>True if the branch is enabled.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative, or not less than the number of branches.</exception>
    public bool IsEnabled(int index)
    {
        CheckIndex(index);
        return (Volatile.Read(ref _enabled) & (1UL << index)) != 0;
    }

    /// <summary>
    /// Gets the generation of the first wait armed by the current yield. Later waits of the same yield (its chosen
    /// branch could not complete after all: another receiver took the message) have higher ones, and a time branch
    /// armed by any of them keeps that deadline: a timeout bounds the whole wait of one yield. Owner only.
    /// </summary>
    internal long FirstWaitOfYield { get; private set; }

    /// <summary>Gets the generation of the current (or last) wait; for wakers whose registration cannot outlive it.</summary>
    internal long CurrentGeneration => Volatile.Read(ref _generation);

    /// <summary>Gets a value indicating whether wait <paramref name="generation"/> is still on, with no branch chosen yet. Any thread.</summary>
    internal bool IsWaiting(long generation)
    {
        var state = Volatile.Read(ref _state);
        return state >> GenerationShift == generation && (state & ChosenMask) == 0;
    }

    /// <inheritdoc/>
    public override string ToString() => _wrapper?.ToString() ?? $"Choice({string.Join(", ", (IEnumerable<Event>)_branches)})";

    // Any branch ends the wait, so the choice waits on every branch's threads. In a trace, the branches' own words.
    internal override void DescribeWait(WaitDescription into)
    {
        if (into.ForTrace)
        {
            into.Trace(_wrapper is { } wrapper ? WaitDescription.TraceOf(wrapper) : $"Choice({string.Join(", ", _branches.Select(WaitDescription.TraceOf))})");
            return;
        }

        // Only the branches the wait enlisted: a disabled one cannot end it. With none, nothing can.
        var enabled = Volatile.Read(ref _enabled);
        if (enabled == 0)
        {
            into.Say($"nothing: {this}, with every branch disabled, which never completes");
            return;
        }

        into.Say("one of: ");
        var first = true;
        for (var i = 0; i < _branches.Length; i++)
        {
            if ((enabled & (1UL << i)) == 0)
            {
                continue;
            }

            into.Say(first ? "[" : "; [");
            first = false;
            _branches[i].DescribeWait(into);
            into.Say("]");
        }

        var disabled = Enumerable.Range(0, _branches.Length).Where(i => (enabled & (1UL << i)) == 0).ToList();
        if (disabled.Count > 0)
        {
            into.Say($" ({(disabled.Count == 1 ? "branch" : "branches")} {string.Join(", ", disabled)} disabled)");
        }
    }

    /// <summary>Makes the choice speak of <paramref name="wrapper"/>, whose work it does, in its messages.</summary>
    internal void DoesTheWorkOf(Event wrapper) => _wrapper = wrapper;

    /// <summary>Gets the thread the choice is bound to, once it has been yielded; any thread.</summary>
    internal GreenThread? Owner => Volatile.Read(ref _owner);

    /// <summary>
    /// Switches a branch on or off for later waits (<see cref="Disable"/>, <see cref="Enable"/>). Refused while a wait
    /// is armed with no branch chosen, which covers the whole time the thread is parked on the choice: its mask was
    /// read when the wait began, so a change then would not take effect, and enabling a branch could not wake a choice
    /// parked with every branch disabled. The look reads the state word the wakers use, so a wait pays nothing for it.
    /// </summary>
    private void SetEnabled(int index, bool enabled, string operation)
    {
        CheckIndex(index);
        // A thread ended while parked (its scheduler disposed) no longer waits: its choice may be changed, to no effect.
        var state = Volatile.Read(ref _state);
        if (state != 0 && (state & ChosenMask) == 0 && Owner is { IsCompleted: false })
        {
            throw new InvalidOperationException($"{operation}({index}) was called on {this} while {Owner} waits on it; only the thread that yields the choice changes its branches, between its yields.");
        }

        var bit = 1UL << index;
        Volatile.Write(ref _enabled, enabled ? _enabled | bit : _enabled & ~bit);
    }

    /// <summary>Throws unless <paramref name="index"/> is a branch's position.</summary>
    private void CheckIndex(int index)
    {
        if ((uint)index >= (uint)_branches.Length)
        {
            throw new ArgumentOutOfRangeException(nameof(index), index, $"{this} has branches 0 to {_branches.Length - 1}.");
        }
    }
}
