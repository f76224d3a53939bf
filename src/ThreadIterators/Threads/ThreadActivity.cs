using System.Diagnostics;

namespace ThreadIterators;

/// <summary>
/// A green thread's name, its kept <see cref="Activity"/> and its open receive span, in place of the bare name once
/// the thread keeps an activity across a wait or opens a receive span (<see cref="GreenThread.Activity"/>): only traced threads pay for the field.
/// </summary>
internal sealed class ThreadActivity
{
    internal ThreadActivity(string? name) => Name = name;

    /// <summary>Gets the thread's name.</summary>
    internal string? Name { get; }

    /// <summary>Gets or sets the thread's activity between its turns. The worker running the thread, or its end.</summary>
    internal Activity? Current { get; set; }

    /// <summary>Gets or sets the receive span the thread has open. The worker running the thread, or its end.</summary>
    internal Activity? OpenReceive { get; set; }
}
