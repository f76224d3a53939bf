using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text.Json;
using System.Threading;
using ThreadIterators.Benchmarks.QuickRunner;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// <c>chat-latency [--workers 1,2] [--connections C] [--lines L] [--room-size R] [--runs N] [--max-load X] [--settle SECONDS]</c>:
/// the green chat server in a process of its own, started with its probe (<see cref="ChatProbe"/>), under the
/// load client of this process; the worker counts alternate, the order rotating from run to run. Each run prints one
/// JSON line: the probe's receive completion-to-handled latency and heartbeat lateness, the server's peak resident
/// set and the one at the end of the lines, the client's send-to-receipt latency, and the machine's load average
/// before and after. Before each run it waits up to SECONDS for the 1-minute load average to fall to X, and marks
/// the run <c>loaded</c> if it did not. Then a table of medians and ranges per worker count.
/// </summary>
internal static class ChatLatencyCommand
{
    private const string Usage = "usage: chat-latency [--workers 1,2] [--connections C] [--lines L] [--room-size R] [--runs N] [--max-load X] [--settle SECONDS]";

    /// <summary>The figures of the summary table: the JSON field, its heading, and the factor to its unit.</summary>
    private static readonly (string Field, string Heading, double Scale)[] Figures =
    [
        ("receiveP50Us", "receive p50 (ms)", 1e-3),
        ("receiveP99Us", "receive p99 (ms)", 1e-3),
        ("receiveMaxUs", "receive max (ms)", 1e-3),
        ("heartbeatP50Us", "heartbeat p50 late (ms)", 1e-3),
        ("heartbeatP99Us", "heartbeat p99 late (ms)", 1e-3),
        ("heartbeatMaxUs", "heartbeat max late (ms)", 1e-3),
        ("serverRssPeak", "peak working set (MB)", 1.0 / (1024 * 1024)),
        ("serverRssEnd", "working set at end (MB)", 1.0 / (1024 * 1024)),
        ("gc0", "gen0 GCs", 1.0),
        ("gc1", "gen1 GCs", 1.0),
        ("gc2", "gen2 GCs", 1.0),
        ("gcPauseMs", "GC pauses, total (ms)", 1.0),
        ("workerRunDelayMs", "heartbeat's worker waiting for a core (ms)", 1.0),
        ("workerPreempted", "heartbeat's worker preempted (times)", 1.0),
        ("sendP99Us", "send to receipt p99 (ms)", 1e-3),
        ("linesPerSecond", "lines/s (k)", 1e-3),
        ("loadBefore", "load average before", 1.0),
    ];

    public static int Execute(string[] args)
    {
        int[] workers = [1, 2];
        var load = new ChatLoadOptions { Connections = 1_000, Lines = 100, RoomSize = 10 };
        var runs = 3;
        var maxLoad = 3.0;
        var settle = 120;
        for (var i = 1; i < args.Length; i += 2)
        {
            var text = i + 1 < args.Length ? args[i + 1] : string.Empty;
            var ok = int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) && value >= 0;
            switch (args[i])
            {
                case "--workers":
                    workers = text.Split(',').Select(s => int.Parse(s, CultureInfo.InvariantCulture)).ToArray();
                    break;
                case "--connections" when ok && value > 0:
                    load = load with { Connections = value };
                    break;
                case "--lines" when ok && value > 0:
                    load = load with { Lines = value };
                    break;
                case "--room-size" when ok && value > 1:
                    load = load with { RoomSize = value };
                    break;
                case "--runs" when ok && value > 0:
                    runs = value;
                    break;
                case "--max-load" when double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var most):
                    maxLoad = most;
                    break;
                case "--settle" when ok:
                    settle = value;
                    break;
                default:
                    Console.Error.WriteLine($"bad argument '{args[i]} {text}'.\n{Usage}");
                    return 2;
            }
        }

        Console.Error.WriteLine($"green chat server, {load.Connections:N0} connections in rooms of {load.RoomSize} x {load.Lines} lines; workers {string.Join(", ", workers)}; {runs} run(s) each; .NET {Environment.Version}, {Environment.ProcessorCount} cores");
        var results = workers.ToDictionary(w => w, _ => new List<JsonElement>());
        var clean = true;
        for (var run = 0; run < runs; run++)
        {
            foreach (var count in workers.Skip(run % workers.Length).Concat(workers.Take(run % workers.Length)))
            {
                var before = WaitForLoad(maxLoad, settle);
                using var server = ChatServerProcess.DotNet("green", new ChatOptions { Port = 0, Workers = count }, probe: true);
                var result = ChatLoad.RunAsync(load with { Port = server.Port, ServerPid = server.ProcessId }).GetAwaiter().GetResult();
                server.Stop();
                var after = LoadAverage();
                clean &= result.Clean && server.Probe is not null;
                using var probe = JsonDocument.Parse(server.Probe ?? "{}");
                var line = Line(json =>
                {
                    json.WriteString("workload", "chat-latency");
                    json.WriteNumber("workers", count);
                    json.WriteNumber("run", run + 1);
                    json.WriteNumber("connections", load.Connections);
                    json.WriteNumber("roomSize", load.RoomSize);
                    json.WriteNumber("lines", load.Lines);
                    foreach (var field in probe.RootElement.EnumerateObject().Where(f => f.Name != "probe"))
                    {
                        field.WriteTo(json);
                    }

                    json.WriteNumber("serverRssIdle", result.ServerRssIdle);
                    json.WriteNumber("serverRssEnd", result.ServerRssBusy);
                    json.WriteNumber("serverRssPeak", result.ServerRssPeak);
                    json.WriteNumber("sendP50Us", result.P50Microseconds);
                    json.WriteNumber("sendP99Us", result.P99Microseconds);
                    json.WriteNumber("linesPerSecond", result.LinesPerSecond);
                    json.WriteNumber("loadBefore", before[0]);
                    json.WriteString("loadAverageBefore", string.Join(' ', before.Select(l => l.ToString("0.00", CultureInfo.InvariantCulture))));
                    json.WriteString("loadAverageAfter", string.Join(' ', after.Select(l => l.ToString("0.00", CultureInfo.InvariantCulture))));
                    json.WriteBoolean("loaded", before[0] > maxLoad);
                    json.WriteBoolean("clean", result.Clean);
                });
                Console.WriteLine(line);
                results[count].Add(JsonDocument.Parse(line).RootElement);
            }
        }

        Console.WriteLine();
        Console.WriteLine($"| figure | {string.Join(" | ", workers.Select(w => $"{w} worker{(w == 1 ? string.Empty : "s")}: median [range]"))} |");
        Console.WriteLine($"|---|{string.Concat(workers.Select(_ => "---|"))}");
        foreach (var (field, heading, scale) in Figures)
        {
            Console.WriteLine($"| {heading} | {string.Join(" | ", workers.Select(w => Summary(results[w].Select(r => r.TryGetProperty(field, out var figure) ? figure.GetDouble() * scale : 0).ToList())))} |");
        }

        return clean ? 0 : 1;
    }

    private static string Summary(List<double> values)
    {
        values.Sort();
        var median = values.Count % 2 == 1 ? values[values.Count / 2] : (values[(values.Count / 2) - 1] + values[values.Count / 2]) / 2;
        return string.Create(CultureInfo.InvariantCulture, $"{median:0.0#} [{values[0]:0.0#}-{values[^1]:0.0#}]");
    }

    private static string Line(Action<Utf8JsonWriter> write)
    {
        using var stream = new MemoryStream();
        using (var json = new Utf8JsonWriter(stream))
        {
            json.WriteStartObject();
            write(json);
            json.WriteEndObject();
        }

        return System.Text.Encoding.UTF8.GetString(stream.ToArray());
    }

    /// <summary>Waits up to <paramref name="seconds"/> for the 1-minute load average to fall to <paramref name="most"/>; returns the load averages then.</summary>
    private static double[] WaitForLoad(double most, int seconds)
    {
        var waited = Stopwatch.StartNew();
        var load = LoadAverage();
        while (load[0] > most && waited.Elapsed.TotalSeconds < seconds)
        {
            Console.Error.WriteLine($"load average {load[0]:0.00}: waiting for {most} ({waited.Elapsed.TotalSeconds:0} of {seconds} s)");
            Thread.Sleep(TimeSpan.FromSeconds(5));
            load = LoadAverage();
        }

        return load;
    }

    /// <summary>The 1, 5 and 15-minute load averages of /proc/loadavg, as <c>uptime</c> prints them; zeros off Linux.</summary>
    private static double[] LoadAverage() => File.Exists("/proc/loadavg")
        ? File.ReadAllText("/proc/loadavg").Split(' ').Take(3).Select(s => double.Parse(s, CultureInfo.InvariantCulture)).ToArray()
        : [0, 0, 0];
}
