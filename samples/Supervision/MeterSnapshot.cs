using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Linq;

namespace ThreadIterators.Samples.Supervision;

/// <summary>Reads the <c>ThreadIterators</c> meter once, as any <see cref="MeterListener"/> can, keeping the measurements of one scheduler.</summary>
internal static class MeterSnapshot
{
    /// <summary>Collects every instrument of the meter now and returns those tagged with <paramref name="schedulerTag"/>, without that tag.</summary>
    public static List<(string Instrument, string Tags, long Value)> Read(string schedulerTag)
    {
        var readings = new List<(string Instrument, string Tags, long Value)>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == "ThreadIterators")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            var all = tags.ToArray();
            if (all.Any(tag => tag.Key == "scheduler" && Equals(tag.Value, schedulerTag)))
            {
                var rest = string.Join(",", all.Where(tag => tag.Key != "scheduler").Select(tag => $"{tag.Key}={tag.Value}"));
                readings.Add((instrument.Name, rest, value));
            }
        });
        listener.Start();
        listener.RecordObservableInstruments();
        return readings.OrderBy(reading => reading.Instrument, StringComparer.Ordinal).ThenBy(reading => reading.Tags, StringComparer.Ordinal).ToList();
    }
}
