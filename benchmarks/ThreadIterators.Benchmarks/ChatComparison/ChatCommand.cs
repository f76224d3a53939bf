using System;
using System.Globalization;
using System.Threading;
using ThreadIterators.Benchmarks.QuickRunner;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// <c>chat-server --impl green|async [--port P] [--workers W] [--idle SECONDS] [--outbound LINES] [--probe true]</c>
/// runs one of the two .NET chat servers until its standard input closes or it is stopped, the green one with
/// <c>--probe true</c> then printing what its <see cref="ChatProbe"/> measured as one JSON line; <c>chat-load --port P [--connections C]
/// [--room-size R] [--lines L] [--rate LINES_PER_SECOND] [--server-pid PID] [--misbehaving true]</c> runs the load client against any chat
/// server on 127.0.0.1 and prints one JSON line; it exits with 1 if a line was lost, duplicated or out of order, or a
/// connection failed.
/// </summary>
internal static class ChatCommand
{
    private const string ServerUsage = "usage: chat-server --impl green|async [--port P] [--workers W] [--idle SECONDS] [--outbound LINES] [--policy P] [--probe true|false]";
    private const string LoadUsage = "usage: chat-load --port P [--connections C] [--room-size R] [--lines L] [--rate LINES_PER_SECOND] [--window W] [--server-pid PID] [--line-bytes B] [--misbehaving true|false]";

    public static int Server(string[] args)
    {
        var implementation = "green";
        var options = new ChatOptions { Port = 7000 };
        ChatProbe? probe = null;
        for (var i = 1; i < args.Length; i += 2)
        {
            var text = i + 1 < args.Length ? args[i + 1] : string.Empty;
            var ok = int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) && value >= 0;
            switch (args[i])
            {
                case "--impl" when text is "green" or "async":
                    implementation = text;
                    break;
                case "--port" when ok:
                    options = options with { Port = value };
                    break;
                case "--workers" when ok && value > 0:
                    options = options with { Workers = value };
                    break;
                case "--idle" when ok && value > 0:
                    options = options with { IdleTimeout = TimeSpan.FromSeconds(value) };
                    break;
                case "--outbound" when ok && value > 0:
                    options = options with { OutboundCapacity = value };
                    break;
                case "--policy" when Enum.TryParse<SchedulingPolicy>(text, ignoreCase: true, out var policy):
                    options = options with { Policy = policy };
                    break;
                case "--probe" when text is "true" or "false":
                    probe = text == "true" ? new ChatProbe() : null;
                    break;
                default:
                    Console.Error.WriteLine($"bad argument '{args[i]} {text}'.\n{ServerUsage}");
                    return 2;
            }
        }

        if (probe is not null && implementation != "green")
        {
            Console.Error.WriteLine($"--probe measures the green server only.\n{ServerUsage}");
            return 2;
        }

        using IChatServer server = implementation == "green" ? new ChatServer(probe?.Attach(options) ?? options) : new AsyncChatServer(options);
        if (probe is not null)
        {
            probe.Start((ChatServer)server);
        }

        Console.WriteLine($"{implementation} chat server on 127.0.0.1:{server.Port}");
        using var stop = new ManualResetEventSlim();
        Console.CancelKeyPress += (_, e) =>
        {
            e.Cancel = true;
            stop.Set();
        };

        // The comparison stops a server by closing its standard input.
        new Thread(() =>
        {
            while (Console.In.ReadLine() is not null)
            {
            }

            stop.Set();
        }) { IsBackground = true }.Start();
        // The counts, each second they change, in the form the Erlang server prints them too.
        var last = string.Empty;
        do
        {
            var counts = server.Counters.ToString();
            if (counts != last)
            {
                Console.WriteLine(counts);
                last = counts;
            }
        }
        while (!stop.Wait(TimeSpan.FromSeconds(1)));

        if (probe is not null)
        {
            probe.Stop();
            JsonLine.Print(json =>
            {
                json.WriteString("probe", implementation);
                probe.Write(json);
            });
        }

        return 0;
    }

    public static int Load(string[] args)
    {
        var options = new ChatLoadOptions();
        for (var i = 1; i < args.Length; i += 2)
        {
            var text = i + 1 < args.Length ? args[i + 1] : string.Empty;
            var ok = int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) && value >= 0;
            switch (args[i])
            {
                case "--port" when ok && value > 0:
                    options = options with { Port = value };
                    break;
                case "--connections" when ok && value > 0:
                    options = options with { Connections = value };
                    break;
                case "--room-size" when ok && value > 0:
                    options = options with { RoomSize = value };
                    break;
                case "--lines" when ok:
                    options = options with { Lines = value };
                    break;
                case "--rate" when double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var rate) && rate >= 0:
                    options = options with { Rate = rate };
                    break;
                case "--window" when ok && value > 0:
                    options = options with { Window = value };
                    break;
                case "--server-pid" when ok:
                    options = options with { ServerPid = value };
                    break;
                case "--line-bytes" when ok && value <= 4000:
                    options = options with { LineBytes = value };
                    break;
                case "--misbehaving" when text is "true" or "false":
                    options = options with { Misbehaving = text == "true" };
                    break;
                default:
                    Console.Error.WriteLine($"bad argument '{args[i]} {text}'.\n{LoadUsage}");
                    return 2;
            }
        }

        var result = ChatLoad.RunAsync(options, line => Console.Error.WriteLine(line)).GetAwaiter().GetResult();
        foreach (var error in result.Errors)
        {
            Console.Error.WriteLine(error);
        }

        JsonLine.Print(json =>
        {
            json.WriteString("workload", "chat");
            json.WriteNumber("connections", options.Connections);
            json.WriteNumber("roomSize", options.RoomSize);
            json.WriteNumber("lines", options.Lines);
            json.WriteNumber("rate", options.Rate);
            json.WriteNumber("delivered", result.Delivered);
            json.WriteNumber("expected", result.Expected);
            json.WriteNumber("seconds", result.Seconds);
            json.WriteNumber("linesPerSecond", result.LinesPerSecond);
            json.WriteNumber("p50Us", result.P50Microseconds);
            json.WriteNumber("p99Us", result.P99Microseconds);
            json.WriteNumber("p999Us", result.P999Microseconds);
            json.WriteNumber("lost", result.Lost);
            json.WriteNumber("misordered", result.Misordered);
            json.WriteNumber("connectionErrors", result.ConnectionErrors);
            json.WriteNumber("serverRssBefore", result.ServerRssBefore);
            json.WriteNumber("serverRssIdle", result.ServerRssIdle);
            json.WriteNumber("serverRssBusy", result.ServerRssBusy);
            json.WriteNumber("serverRssPeak", result.ServerRssPeak);
            json.WriteNumber("idleBytesPerConnection", result.IdleBytesPerConnection);
            json.WriteNumber("serverCpuConnecting", result.ServerCpuConnecting);
            json.WriteNumber("serverCpuDelivering", result.ServerCpuDelivering);
            json.WriteNumber("cpuMicrosecondsPerConnection", result.CpuMicrosecondsPerConnection);
            json.WriteNumber("cpuMicrosecondsPerLine", result.CpuMicrosecondsPerLine);
            json.WriteNumber("busyBytesPerConnection", result.BusyBytesPerConnection);
            json.WriteBoolean("clean", result.Clean);
        });
        return result.Clean ? 0 : 1;
    }
}
