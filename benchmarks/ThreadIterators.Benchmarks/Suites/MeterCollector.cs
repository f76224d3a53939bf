using System;
using System.Diagnostics.Metrics;
using System.Threading;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// Listens to the <c>ThreadIterators</c> meter as a monitoring tool would: every instrument enabled, and the observable
/// ones collected on a timer, here ten times as often as <c>dotnet-counters</c>' default of once a second.
/// </summary>
public sealed class MeterCollector : IDisposable
{
    private readonly MeterListener _listener = new();

    private readonly Timer _timer;

    private long _collections;

    private long _lastSent;

    public MeterCollector(TimeSpan interval)
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "ThreadIterators")
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((instrument, value, _, _) =>
        {
            if (instrument.Name == "threaditerators.messages.sent")
            {
                Volatile.Write(ref _lastSent, Math.Max(Volatile.Read(ref _lastSent), value));
            }
        });
        _listener.Start();
        _timer = new Timer(_ => Collect(), null, interval, interval);
    }

    /// <summary>Gets how many collections ran.</summary>
    public long Collections => Interlocked.Read(ref _collections);

    /// <summary>Gets the largest messages-sent value a collection saw: proof the listener read real counts.</summary>
    public long LastSent => Volatile.Read(ref _lastSent);

    public void Dispose()
    {
        _timer.Dispose();
        _listener.Dispose();
    }

    private void Collect()
    {
        _listener.RecordObservableInstruments();
        Interlocked.Increment(ref _collections);
    }
}
