using System;

namespace ThreadIterators.Supervision;

/// <summary>
/// A delay before each restart that doubles while a child keeps failing (Akka.NET's <c>BackoffSupervisor</c>): a
/// <see cref="Supervisor"/> with one waits <see cref="Min"/> before a child's first restart, twice that before the next,
/// and so on up to <see cref="Max"/>. The supervisor goes on serving its other children and its commands meanwhile.
/// </summary>
/// <remarks>
/// The count starts again from <see cref="Min"/> once a child has run for <see cref="ResetAfter"/> before ending.
/// Restarts delayed by a backoff still count toward the supervisor's restart intensity when they are decided, not
/// when they happen.
/// </remarks>
public sealed class RestartBackoff
{
    private readonly double _randomFactor;
    private readonly TimeSpan _resetAfter;

    /// <summary>Initializes a backoff from <paramref name="min"/> to <paramref name="max"/>.</summary>
    /// <param name="min">The delay before a child's first restart in a row; more than zero.</param>
    /// <param name="max">The longest delay; at least <paramref name="min"/>, at most <see cref="Event.MaxSleep"/>.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="min"/> or <paramref name="max"/> is out of range.</exception>
    public RestartBackoff(TimeSpan min, TimeSpan max)
    {
        if (min <= TimeSpan.Zero || min > Event.MaxSleep)
        {
            throw new ArgumentOutOfRangeException(nameof(min), min, $"A restart backoff's shortest delay must be more than zero and at most {Event.MaxSleepText}.");
        }

        if (max < min || max > Event.MaxSleep)
        {
            throw new ArgumentOutOfRangeException(nameof(max), max, $"A restart backoff's longest delay must be at least its shortest ({min}) and at most {Event.MaxSleepText}.");
        }

        Min = min;
        Max = max;
        _resetAfter = max;
    }

    /// <summary>Gets the delay before a child's first restart in a row.</summary>
    public TimeSpan Min { get; }

    /// <summary>Gets the longest delay.</summary>
    public TimeSpan Max { get; }

    /// <summary>
    /// Gets how much each delay may be lengthened at random, as a fraction of it: 0 (the default) for none, 0.2 for up
    /// to 20% longer, so that children that failed together do not all restart at the same moment.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Set to less than 0 or more than 1.</exception>
    public double RandomFactor
    {
        get => _randomFactor;
        init => _randomFactor = value is >= 0 and <= 1 ? value : throw new ArgumentOutOfRangeException(nameof(RandomFactor), value, "A restart backoff's random factor must be from 0 to 1.");
    }

    /// <summary>Gets how long a child must have run, before it ends, for its next restart to wait only <see cref="Min"/> again. Defaults to <see cref="Max"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Set to zero or less.</exception>
    public TimeSpan ResetAfter
    {
        get => _resetAfter;
        init => _resetAfter = value > TimeSpan.Zero ? value : throw new ArgumentOutOfRangeException(nameof(ResetAfter), value, "A restart backoff's reset time must be more than zero.");
    }

    /// <summary>The delay before the <paramref name="inARow"/>th restart in a row (from 1).</summary>
    internal TimeSpan DelayFor(int inARow)
    {
        var ticks = Min.Ticks;
        for (var i = 1; i < inARow && ticks < Max.Ticks; i++)
        {
            ticks *= 2;
        }

        ticks = Math.Min(ticks, Max.Ticks);
        if (RandomFactor > 0)
        {
            ticks += (long)(ticks * RandomFactor * Random.Shared.NextDouble());
            ticks = Math.Min(ticks, Event.MaxSleep.Ticks);
        }

        return TimeSpan.FromTicks(ticks);
    }

    /// <inheritdoc/>
    public override string ToString() => $"backoff {Min} to {Max}";
}
