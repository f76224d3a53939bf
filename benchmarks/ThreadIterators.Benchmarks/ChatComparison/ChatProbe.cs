using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Text.Json;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// What <c>chat-server --probe true</c> measures inside the green server: for each receive that was pending when
/// started, the time from its task completing (on a thread-pool thread) to its reader running again on a worker; and
/// a heartbeat green thread's lateness, sleeping 10 ms again and again among the connections' threads. Any thread
/// adds; <see cref="Write"/> after <see cref="Stop"/>.
/// </summary>
internal sealed class ChatProbe
{
    private static readonly TimeSpan Period = TimeSpan.FromMilliseconds(10);

    private volatile bool _stopping;

    /// <summary>Gets the receives' completion-to-handled latencies, in microseconds.</summary>
    public LatencyHistogram Receives { get; } = new();

    /// <summary>Gets how much later than 10 ms each heartbeat woke, in microseconds.</summary>
    public LatencyHistogram Heartbeat { get; } = new();

    /// <summary>Gets the options that make a green server report its receives here.</summary>
    public ChatOptions Attach(ChatOptions options) => options with { ReceiveHandled = ticks => Receives.Add(Microseconds(ticks)) };

    /// <summary>Starts the heartbeat on <paramref name="server"/>'s scheduler.</summary>
    public void Start(ChatServer server) => server.Scheduler.Spawn(Beat(), "heartbeat");

    /// <summary>Ends the heartbeat at its next wake-up.</summary>
    public void Stop() => _stopping = true;

    /// <summary>Writes the figures as JSON fields (microseconds; the maxima within the histogram's 1.6%).</summary>
    public void Write(Utf8JsonWriter json)
    {
        json.WriteNumber("receives", Receives.Count);
        json.WriteNumber("receiveP50Us", Receives.Percentile(0.50));
        json.WriteNumber("receiveP99Us", Receives.Percentile(0.99));
        json.WriteNumber("receiveP999Us", Receives.Percentile(0.999));
        json.WriteNumber("receiveMaxUs", Receives.Percentile(1.0));
        json.WriteNumber("heartbeats", Heartbeat.Count);
        json.WriteNumber("heartbeatP50Us", Heartbeat.Percentile(0.50));
        json.WriteNumber("heartbeatP99Us", Heartbeat.Percentile(0.99));
        json.WriteNumber("heartbeatMaxUs", Heartbeat.Percentile(1.0));
    }

    private static long Microseconds(long ticks) => ticks * 1_000_000 / Stopwatch.Frequency;

    private IEnumerable<Event> Beat()
    {
        var sleep = Event.Sleep(Period);
        var periodTicks = (long)(Period.TotalSeconds * Stopwatch.Frequency);
        while (!_stopping)
        {
            var start = Stopwatch.GetTimestamp();
            yield return sleep;
            Heartbeat.Add(Microseconds(Stopwatch.GetTimestamp() - start - periodTicks));
        }
    }
}
