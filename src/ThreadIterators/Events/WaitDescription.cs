using System.Collections.Generic;
using System.Text;

namespace ThreadIterators;

/// <summary>
/// What one green thread waits for, as its event describes it (<see cref="Event.DescribeWait"/>). For the
/// <see cref="WaitGraph"/>: words, the threads whose progress would end the wait, and whether a timer or something
/// outside the scheduler could end it instead, built on the OS thread that asks, from state the event already holds.
/// For a driven run's trace (<see cref="ForTrace"/>): the event's words in a trace line, and what a completed wait gave.
/// </summary>
/// <remarks>
/// One asker, one description; not shared between threads. The text and the thread list are made on first use, so a
/// description asked for a trace, which needs neither, costs one small object.
/// </remarks>
internal sealed class WaitDescription
{
    /// <summary>The words so far; made by the first <see cref="Say"/>.</summary>
    private StringBuilder? _text;

    /// <summary>The threads whose progress would end the wait, each once; made by the first read of <see cref="On"/> or thread recorded.</summary>
    private List<GreenThread>? _on;

    /// <summary>The event's words in a trace, if it gave some (<see cref="Trace"/>).</summary>
    private string? _trace;

    /// <summary>Gets a value indicating whether only the trace is asked for: then an event skips the graph's words and threads, and says <see cref="Trace"/> and <see cref="Gave"/> only.</summary>
    internal bool ForTrace { get; private init; }

    /// <summary>Gets a value indicating whether the wait described has completed, so the event may say what it gave (<see cref="Gave"/>). Only with <see cref="ForTrace"/>.</summary>
    internal bool Completed { get; private init; }

    /// <summary>Gets the threads found so far whose progress would end the wait, each once.</summary>
    internal List<GreenThread> On => _on ??= [];

    /// <summary>Gets or sets a value indicating whether a timer could end the wait (a sleep, a timeout, an ask's deadline).</summary>
    internal bool Timer { get; set; }

    /// <summary>Gets or sets a value indicating whether something outside the scheduler could end it (a task, a token, a channel).</summary>
    internal bool Outside { get; set; }

    /// <summary>Gets the words so far.</summary>
    internal string Text => _text?.ToString() ?? string.Empty;

    /// <summary>Gets the event's words in a trace: what it gave with <see cref="Trace"/>, else null (the asker then uses the event's <see cref="object.ToString"/>).</summary>
    internal string? TraceText => _trace;

    /// <summary>Gets what a completed wait gave, for a trace: " -> 5" for a receive that took 5; empty for events that give nothing.</summary>
    internal string Result { get; private set; } = string.Empty;

    /// <summary>
    /// Asks <paramref name="event"/> for its words in a driven run's trace and, if its wait has
    /// <paramref name="completed"/>, what it gave. <see cref="TraceText"/> is then never null: an event that gave no
    /// words of its own is named by its <see cref="object.ToString"/>.
    /// </summary>
    internal static WaitDescription Traced(Event @event, bool completed)
    {
        var description = new WaitDescription { ForTrace = true, Completed = completed };
        @event.DescribeWait(description);
        description._trace ??= @event.ToString() ?? @event.GetType().Name;
        return description;
    }

    /// <summary>Gets <paramref name="event"/>'s words in a trace, for an event whose own words include it (a choice's branches, a timeout's event).</summary>
    internal static string TraceOf(Event @event) => Traced(@event, completed: false).TraceText!;

    /// <summary>Appends words.</summary>
    internal WaitDescription Say(string words)
    {
        (_text ??= new StringBuilder()).Append(words);
        return this;
    }

    /// <summary>Records a thread whose progress would end the wait; null (nobody known) records nothing.</summary>
    internal WaitDescription WaitsOn(GreenThread? thread)
    {
        if (thread is not null && !On.Contains(thread))
        {
            On.Add(thread);
        }

        return this;
    }

    /// <summary>
    /// Gives the event's words in a trace, in place of its <see cref="object.ToString"/>: for an event whose
    /// <see cref="object.ToString"/> shows state that work outside the scheduler changes in real time (whether a task
    /// has completed, a token been canceled), which a replay could find otherwise. Such words name only what the run
    /// decides.
    /// </summary>
    internal void Trace(string words) => _trace = words;

    /// <summary>Gives what the completed wait gave the thread, for a trace: " -> 5". Called only when <see cref="Completed"/>.</summary>
    internal void Gave(string result) => Result = result;
}
