using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A link between two green threads (<see cref="GreenThread.Link"/>): one object, kept by both threads' exit events,
/// fired once by the first of the two to end, or cut by <see cref="GreenThread.Unlink"/>; never both.
/// </summary>
/// <remarks>Any thread; the state changes once, by a compare-and-swap.</remarks>
internal sealed class ThreadLink
{
    private const int Active = 0;
    private const int Done = 1;

    private int _state;

    internal ThreadLink(GreenThread first, GreenThread second)
    {
        First = first;
        Second = second;
    }

    internal GreenThread First { get; }

    internal GreenThread Second { get; }

    /// <summary>Gets the other end of the link from <paramref name="thread"/>.</summary>
    internal GreenThread Other(GreenThread thread) => thread == First ? Second : First;

    /// <summary>Takes the link for firing or cutting; true for the one caller that gets it.</summary>
    internal bool TryTake() => Interlocked.CompareExchange(ref _state, Done, Active) == Active;
}
