using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Linq;

namespace ThreadIterators.Tests;

/// <summary>
/// Reads the <c>ThreadIterators</c> meter as any listener would: a <see cref="MeterListener"/> that enables its
/// instruments and collects the observable ones on demand. One per test, so tests running at once do not share readings.
/// </summary>
internal sealed class MeterReading : IDisposable
{
    private readonly MeterListener _listener = new();

    private readonly object _gate = new();

    /// <summary>The last collection: instrument name and tags ("k=v" sorted, comma-separated) to value.</summary>
    private readonly Dictionary<(string Instrument, string Tags), long> _values = [];

    internal MeterReading()
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "ThreadIterators")
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            var key = string.Join(",", tags.ToArray().Select(tag => $"{tag.Key}={tag.Value}").Order(StringComparer.Ordinal));
            lock (_gate)
            {
                _values[(instrument.Name, key)] = value;
            }
        });
        _listener.Start();
    }

    /// <summary>Gets the names of the meter's instruments seen so far.</summary>
    internal IReadOnlyCollection<string> Instruments
    {
        get
        {
            Collect();
            lock (_gate)
            {
                return _values.Keys.Select(key => key.Instrument).ToHashSet();
            }
        }
    }

    /// <summary>The tag value naming <paramref name="scheduler"/>: its name and number.</summary>
    internal static string Tag(Scheduler scheduler) => $"{scheduler.Name}#{scheduler.Number}";

    /// <summary>Collects now and reads one instrument for one scheduler (and one more tag, if given); fails if it was not measured.</summary>
    internal long Read(string instrument, Scheduler scheduler, string? tag = null) => Read(instrument, $"scheduler={Tag(scheduler)}", tag);

    /// <summary>Collects now and reads one instrument for the work done outside any worker.</summary>
    internal long ReadOutside(string instrument) => Read(instrument, "scheduler=outside", tag: null);

    /// <summary>Collects now and tells whether <paramref name="scheduler"/> is measured at all.</summary>
    internal bool Measures(Scheduler scheduler)
    {
        Collect();
        lock (_gate)
        {
            return _values.Keys.Any(key => key.Tags.Contains($"scheduler={Tag(scheduler)}", StringComparison.Ordinal));
        }
    }

    public void Dispose() => _listener.Dispose();

    private long Read(string instrument, string schedulerTag, string? tag)
    {
        Collect();
        var tags = tag is null ? schedulerTag : string.Join(",", new[] { schedulerTag, tag }.Order(StringComparer.Ordinal));
        lock (_gate)
        {
            return _values.TryGetValue((instrument, tags), out var value)
                ? value
                : throw new InvalidOperationException($"No measurement of {instrument} with tags {tags}; measured: {string.Join("; ", _values.Keys.Where(key => key.Instrument == instrument).Select(key => key.Tags))}");
        }
    }

    private void Collect()
    {
        lock (_gate)
        {
            _values.Clear();
        }

        _listener.RecordObservableInstruments();
    }
}
