using System;

namespace ThreadIterators.Tests;

/// <summary>A clock with a chosen timestamp frequency that stands still unless set: for the queue's unit conversions. It makes no timers of its own.</summary>
/// <remarks>One test thread.</remarks>
internal sealed class OddFrequencyClock : TimeProvider
{
    /// <summary>The timestamp units per second.</summary>
    private readonly long _frequency;

    internal OddFrequencyClock(long frequency, long now)
    {
        _frequency = frequency;
        Timestamp = now;
    }

    /// <summary>Gets or sets what <see cref="GetTimestamp"/> returns.</summary>
    internal long Timestamp { get; set; }

    public override long TimestampFrequency => _frequency;

    public override long GetTimestamp() => Timestamp;
}
