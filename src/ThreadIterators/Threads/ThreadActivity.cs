using System.Diagnostics;

namespace ThreadIterators;

/// <summary>
/// A green thread's name and its kept <see cref="Activity"/>, in place of the bare name once the thread keeps an
/// activity across a wait (<see cref="GreenThread.Activity"/>): only traced threads pay for the field.
/// </summary>
internal sealed class ThreadActivity
{
    internal ThreadActivity(string? name, Activity current)
    {
        Name = name;
        Current = current;
    }

    /// <summary>Gets the thread's name.</summary>
    internal string? Name { get; }

    /// <summary>Gets or sets the thread's activity between its turns. The worker running the thread, or its end.</summary>
    internal Activity? Current { get; set; }
}
