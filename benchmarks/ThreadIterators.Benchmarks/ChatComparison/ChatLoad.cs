using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading.Tasks;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// The load client of the chat comparison: opens C connections to a chat server on 127.0.0.1, puts them in rooms of
/// R, has each send L lines, and checks that every member received every other member's lines once and in order.
/// Measures delivered lines per second, send-to-receipt latency, and the server's memory if its process id is given.
/// </summary>
internal static class ChatLoad
{
    /// <summary>How many connections are opened at once: the server's accept backlog is 1,024.</summary>
    private const int ConnectBatch = 256;

    internal static async Task<ChatLoadResult> RunAsync(ChatLoadOptions options, Action<string>? progress = null)
    {
        using var run = new ChatLoadRun();
        var connections = Enumerable.Range(0, options.Connections).Select(i => new LoadConnection(run, i, options.Window, RoleOf(i, options))).ToArray();
        try
        {
            var rssBefore = Rss(options.ServerPid, "VmRSS");
            var cpuBefore = CpuSeconds(options.ServerPid);
            for (var first = 0; first < connections.Length; first += ConnectBatch)
            {
                await Task.WhenAll(connections.Skip(first).Take(ConnectBatch).Select(c => c.ConnectAsync(options.Port)));
                progress?.Invoke($"connected {Math.Min(first + ConnectBatch, connections.Length)} of {connections.Length}");
            }

            for (var first = 0; first < connections.Length; first += ConnectBatch)
            {
                await Task.WhenAll(connections.Skip(first).Take(ConnectBatch).Select(c =>
                {
                    var room = c.Index / options.RoomSize;
                    var others = connections.Where(o => o.Index / options.RoomSize == room && o != c && o.Role == LoadRole.WellBehaved).Select(o => o.Id);
                    return c.JoinAsync($"room{room}", others, options.Lines);
                }));
            }

            var rssIdle = Rss(options.ServerPid, "VmRSS");
            var cpuIdle = CpuSeconds(options.ServerPid);
            progress?.Invoke($"{connections.Length} connections in rooms of {options.RoomSize}; sending {options.Lines} lines each");
            var wellBehaved = connections.Where(c => c.Role == LoadRole.WellBehaved).ToArray();
            var receiving = wellBehaved.Select(c => c.ReceiveAsync()).ToArray();
            var start = Stopwatch.GetTimestamp();
            await Task.WhenAll(connections.Where(c => c.Role == LoadRole.Vanishing).Select(c => c.VanishAsync()));
            var sending = wellBehaved.Select(c => c.SendAsync(options.Lines, options.Rate, start, options.LineBytes)).ToArray();
            var everything = Task.WhenAll(receiving.Concat(sending));
            var lastProgress = Stopwatch.GetTimestamp();
            var lastCount = 0L;
            while (!everything.IsCompleted)
            {
                await Task.WhenAny(everything, Task.Delay(TimeSpan.FromSeconds(1)));
                var count = run.DeliveredCount;
                if (count != lastCount)
                {
                    lastCount = count;
                    lastProgress = Stopwatch.GetTimestamp();
                    progress?.Invoke($"delivered {count:N0} lines");
                }
                else if (Stopwatch.GetElapsedTime(lastProgress).TotalSeconds > options.StallSeconds)
                {
                    progress?.Invoke($"no line delivered for {options.StallSeconds} s: stopping, and counting what is missing as lost");
                    run.Stop();
                    foreach (var connection in connections)
                    {
                        connection.Dispose();
                    }

                    await everything;
                }
            }

            var end = run.LastDelivery;
            var rssBusy = Rss(options.ServerPid, "VmRSS");
            var cpuBusy = CpuSeconds(options.ServerPid);
            var expected = wellBehaved.Sum(c => c.Expected);
            return new ChatLoadResult
            {
                Options = options,
                Delivered = run.DeliveredCount,
                Expected = expected,
                Seconds = end > start ? (double)(end - start) / Stopwatch.Frequency : 0,
                P50Microseconds = run.Latencies.Percentile(0.50),
                P99Microseconds = run.Latencies.Percentile(0.99),
                P999Microseconds = run.Latencies.Percentile(0.999),
                Lost = wellBehaved.Sum(c => Math.Max(0, c.Expected - c.Received)),
                Misordered = run.MisorderedCount,
                ConnectionErrors = run.ConnectionErrors,
                Errors = [.. run.Errors],
                ServerRssBefore = rssBefore,
                ServerRssIdle = rssIdle,
                ServerRssBusy = rssBusy,
                ServerRssPeak = Rss(options.ServerPid, "VmHWM"),
                ServerCpuConnecting = cpuIdle - cpuBefore,
                ServerCpuDelivering = cpuBusy - cpuIdle,
            };
        }
        finally
        {
            run.Stop();
            foreach (var connection in connections)
            {
                connection.Dispose();
            }
        }
    }

    /// <summary>With misbehaving clients, the last two of every ten: one stalls, one vanishes.</summary>
    private static LoadRole RoleOf(int index, ChatLoadOptions options) => !options.Misbehaving ? LoadRole.WellBehaved : (index % 10) switch
    {
        9 => LoadRole.Stalled,
        8 => LoadRole.Vanishing,
        _ => LoadRole.WellBehaved,
    };

    /// <summary>
    /// Reads the CPU time all the process's threads have used, user and system, from /proc/PID/stat, in seconds; 0
    /// without a process id or off Linux. The kernel counts it in ticks of 1/100 s (USER_HZ).
    /// </summary>
    private static double CpuSeconds(int pid)
    {
        var stat = $"/proc/{pid}/stat";
        if (pid == 0 || !File.Exists(stat))
        {
            return 0;
        }

        // The command name, in parentheses, may hold spaces: count the fields from after it (state is field 3).
        var text = File.ReadAllText(stat);
        var fields = text[(text.LastIndexOf(')') + 2)..].Split(' ');
        const int UserTime = 14 - 3;
        const int SystemTime = 15 - 3;
        return (long.Parse(fields[UserTime], CultureInfo.InvariantCulture) + long.Parse(fields[SystemTime], CultureInfo.InvariantCulture)) / 100.0;
    }

    /// <summary>Reads a memory line of /proc/PID/status, in bytes; 0 without a process id or off Linux.</summary>
    private static long Rss(int pid, string field)
    {
        var status = $"/proc/{pid}/status";
        if (pid == 0 || !File.Exists(status))
        {
            return 0;
        }

        foreach (var line in File.ReadLines(status))
        {
            if (line.StartsWith(field + ":", StringComparison.Ordinal))
            {
                return long.Parse(line.AsSpan(field.Length + 1).Trim().TrimEnd("kB").Trim()) * 1024;
            }
        }

        return 0;
    }
}
