using System.Collections.Generic;
using System.Text;

namespace ThreadIterators;

/// <summary>
/// What one green thread waits for, as its event describes it (<see cref="Event.DescribeWait"/>): words, the threads
/// whose progress would end the wait, and whether a timer or something outside the scheduler could end it instead.
/// Built on the OS thread that asks for the <see cref="WaitGraph"/>, from state the event already holds.
/// </summary>
internal sealed class WaitDescription
{
    private readonly StringBuilder _text = new();

    /// <summary>Gets the threads found so far whose progress would end the wait, each once.</summary>
    internal List<GreenThread> On { get; } = [];

    /// <summary>Gets or sets a value indicating whether a timer could end the wait (a sleep, a timeout, an ask's deadline).</summary>
    internal bool Timer { get; set; }

    /// <summary>Gets or sets a value indicating whether something outside the scheduler could end it (a task, a token, a channel).</summary>
    internal bool Outside { get; set; }

    /// <summary>Gets the words so far.</summary>
    internal string Text => _text.ToString();

    /// <summary>Appends words.</summary>
    internal WaitDescription Say(string words)
    {
        _text.Append(words);
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
}
