using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using ThreadIterators.Benchmarks.Charting;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Benchmarks.QuickRunner;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>Writes the chat comparison's results: <c>server-comparison.md</c> and its chart.</summary>
internal static class ChatReport
{
    public const string FileName = "server-comparison.md";

    public const string ChartName = "server-comparison.png";

    public static string Write(IReadOnlyList<ChatCompareResult> results, IReadOnlyDictionary<string, List<(ChatLoadResult Result, long Dropped)>> misbehaved, string erlangVersion, int workers, int runs, ChatOptions serverOptions, string chart, string output, TimeSpan elapsed)
    {
        var sizes = results.Select(r => r.Load.Connections).Distinct().Order().ToList();
        ChatCompareResult At(string server, int connections) => results.First(r => r.Server == server && r.Load.Connections == connections);
        var md = new StringBuilder();
        md.AppendLine("# Chat server: green threads, async/await and Erlang");
        md.AppendLine();
        md.AppendLine("The same line-based chat server (protocol in [samples/ChatServer/README.md](../samples/ChatServer/README.md)) three ways:");
        md.AppendLine("`samples/ChatServer` (green threads: a reader and a writer per connection, a thread per room), its twin with");
        md.AppendLine("async/await and `System.Threading.Channels` (`benchmarks/ThreadIterators.Benchmarks/ChatComparison`), and");
        md.AppendLine("`benchmarks/erlang/chat_server.erl` (`gen_tcp` with `{active, once}`, a process per connection and per room).");
        md.AppendLine($"Each runs in a process of its own on {workers} OS threads ({workers} schedulers for Erlang), with the same limits: an");
        md.AppendLine($"idle timeout of {serverOptions.IdleTimeout.TotalSeconds:N0} s, lines of at most {serverOptions.MaxLineBytes:N0} bytes, and {serverOptions.OutboundCapacity:N0} lines waiting for a client");
        md.AppendLine("before it is dropped as one that stopped reading (Erlang looks at a member's queue every 16 lines).");
        md.AppendLine();
        md.AppendLine($"The load client (this program's `chat-load`, run in the comparing process) opens C connections in rooms of {sizes.Select(c => At("green", c).Load.RoomSize).First()}; each");
        md.AppendLine("sends its lines, numbered and stamped with the time they leave, as fast as its room takes them (at most 32 ahead of");
        md.AppendLine("what it has received), and every member checks it gets every other member's lines once and in order. Throughput is");
        md.AppendLine("lines delivered per second from the first send to the last receipt; latency is send to receipt; memory is the");
        md.AppendLine("server's resident set (`/proc/PID/status`) before the connections, with all connected and joined (idle), and after");
        md.AppendLine($"the lines (busy), per connection. Medians of {runs} run(s) per server and size; the servers alternate, the order rotating");
        md.AppendLine("from run to run. Client and server share the machine's cores.");
        md.AppendLine();
        md.AppendLine($"Machine: {MachineInfo.Processor}, {MachineInfo.Memory}, {MachineInfo.OperatingSystem}. .NET {Environment.Version}; {erlangVersion}.");
        md.AppendLine($"Command: `dotnet run -c Release --project benchmarks/ThreadIterators.Benchmarks -- chat-compare --runs {runs} --workers {workers} --connections {string.Join(',', sizes)}` ({elapsed.TotalMinutes:N1} minutes).");
        md.AppendLine();
        md.AppendLine("Servers, as started:");
        md.AppendLine();
        foreach (var server in ChatCompareCommand.Servers)
        {
            md.AppendLine($"- {server}: `{ChatServerProcess.CommandLine(server, serverOptions)}`");
        }

        md.AppendLine();
        md.AppendLine($"![throughput and p99 latency against connections]({ChartName})");
        md.AppendLine();
        md.AppendLine("## Throughput (lines delivered per second)");
        md.AppendLine();
        md.AppendLine("| C | lines each | green | async | erlang | green / async | green / erlang |");
        md.AppendLine("|---|---|---|---|---|---|---|");
        foreach (var c in sizes)
        {
            var (g, a, e) = (At("green", c), At("async", c), At("erlang", c));
            md.AppendLine($"| {c:N0} | {g.Load.Lines} | {g.LinesPerSecond:N0} | {a.LinesPerSecond:N0} | {e.LinesPerSecond:N0} | {g.LinesPerSecond / a.LinesPerSecond:N2} | {g.LinesPerSecond / e.LinesPerSecond:N2} |");
        }

        md.AppendLine();
        md.AppendLine("## Latency, send to receipt (ms: p50 / p99 / p99.9)");
        md.AppendLine();
        md.AppendLine("| C | green | async | erlang | p99 green / async | p99 erlang / green |");
        md.AppendLine("|---|---|---|---|---|---|");
        foreach (var c in sizes)
        {
            var (g, a, e) = (At("green", c), At("async", c), At("erlang", c));
            md.AppendLine($"| {c:N0} | {Ms(g)} | {Ms(a)} | {Ms(e)} | {g.P99 / a.P99:N2} | {e.P99 / g.P99:N2} |");
        }

        md.AppendLine();
        md.AppendLine("## Server memory per connection (KB: idle / busy) and peak resident set (MB)");
        md.AppendLine();
        md.AppendLine("| C | green | async | erlang | idle green / async | idle green / erlang |");
        md.AppendLine("|---|---|---|---|---|---|");
        foreach (var c in sizes)
        {
            var (g, a, e) = (At("green", c), At("async", c), At("erlang", c));
            md.AppendLine($"| {c:N0} | {Kb(g)} | {Kb(a)} | {Kb(e)} | {g.IdleBytesPerConnection / a.IdleBytesPerConnection:N2} | {g.IdleBytesPerConnection / e.IdleBytesPerConnection:N2} |");
        }

        md.AppendLine();
        md.AppendLine("## Server CPU (user and system, all threads, from `/proc/PID/stat`)");
        md.AppendLine();
        md.AppendLine("Per connection opened and joined (µs), and per line delivered (µs) while the lines flow. The kernel counts CPU in");
        md.AppendLine("ticks of 10 ms, so the smallest runs are coarse.");
        md.AppendLine();
        md.AppendLine("| C | per connection: green / async / erlang | per line: green / async / erlang | per line green / async |");
        md.AppendLine("|---|---|---|---|");
        foreach (var c in sizes)
        {
            var (g, a, e) = (At("green", c), At("async", c), At("erlang", c));
            md.AppendLine($"| {c:N0} | {g.CpuMicrosecondsPerConnection:N0} / {a.CpuMicrosecondsPerConnection:N0} / {e.CpuMicrosecondsPerConnection:N0} | {g.CpuMicrosecondsPerLine:N2} / {a.CpuMicrosecondsPerLine:N2} / {e.CpuMicrosecondsPerLine:N2} | {g.CpuMicrosecondsPerLine / a.CpuMicrosecondsPerLine:N2} |");
        }

        md.AppendLine();
        md.AppendLine("## Every line once, in order");
        md.AppendLine();
        md.AppendLine("| server | runs | lost | misordered | connection errors |");
        md.AppendLine("|---|---|---|---|---|");
        foreach (var server in ChatCompareCommand.Servers)
        {
            var all = results.Where(r => r.Server == server).SelectMany(r => r.Runs).ToList();
            md.AppendLine($"| {server} | {all.Count} | {all.Sum(r => r.Lost)} | {all.Sum(r => r.Misordered)} | {all.Sum(r => r.ConnectionErrors)} |");
        }

        md.AppendLine();
        md.AppendLine("## Misbehaving clients");
        md.AppendLine();
        var sample = misbehaved.Values.First().First().Result.Options;
        md.AppendLine($"C = {sample.Connections:N0} in rooms of {sample.RoomSize}: in every ten connections one joins and then never reads again (a 4 KB");
        md.AppendLine("receive buffer), one sends half a line and resets its connection when the lines start, and the other eight send");
        md.AppendLine($"{sample.Lines:N0} lines of {sample.LineBytes:N0} bytes each and check they get every line of the others that send. Medians of the runs; lost, misordered and");
        md.AppendLine("errors are the sums over the runs; dropped is what the server counted as clients that stopped reading.");
        md.AppendLine();
        md.AppendLine($"| server | lines/s to the well-behaved | lost / misordered / errors | dropped (of {sample.Connections / 10} stalled) | peak resident set (MB) |");
        md.AppendLine("|---|---|---|---|---|");
        foreach (var server in ChatCompareCommand.Servers)
        {
            var runsOf = misbehaved[server];
            double MedianOf(Func<(ChatLoadResult Result, long Dropped), double> f)
            {
                var sorted = runsOf.Select(f).Order().ToList();
                return sorted[sorted.Count / 2];
            }

            md.AppendLine($"| {server} | {MedianOf(m => m.Result.LinesPerSecond):N0} | {runsOf.Sum(m => m.Result.Lost)} / {runsOf.Sum(m => m.Result.Misordered)} / {runsOf.Sum(m => m.Result.ConnectionErrors)} | {MedianOf(m => m.Dropped):N0} | {MedianOf(m => m.Result.ServerRssPeak) / (1024 * 1024):N0} |");
        }

        if (misbehaved.Values.All(runsOf => runsOf.All(m => m.Dropped == 0)))
        {
            md.AppendLine();
            md.AppendLine("No server dropped a stalled client in these runs: a stalled client is dropped once its backlog passes its socket");
            md.AppendLine("buffers (the server's send buffer grows to megabytes on Linux) and then the outbound capacity, and these lines all");
            md.AppendLine("fit in the buffers, which bound the memory a stalled client holds. The drop itself is exercised by the protocol");
            md.AppendLine("tests (`ClientThatStopsReading_IsDropped_OthersGetEveryLine_InOrder`, against all three servers).");
        }

        md.AppendLine();
        md.AppendLine("## Targets");
        md.AppendLine();
        md.AppendLine("| target | measured | met |");
        md.AppendLine("|---|---|---|");
        string Ratios(Func<int, double> ratio) => string.Join(", ", sizes.Select(c => $"{ratio(c):N2} at {c:N0}"));
        bool All(Func<int, bool> test) => sizes.All(test);
        md.AppendLine($"| throughput: green at least async's (within noise, taken as 5%) | green / async: {Ratios(c => At("green", c).LinesPerSecond / At("async", c).LinesPerSecond)} | {YesNo(All(c => At("green", c).LinesPerSecond >= 0.95 * At("async", c).LinesPerSecond))} |");
        md.AppendLine($"| throughput: green at least 2x Erlang's | green / erlang: {Ratios(c => At("green", c).LinesPerSecond / At("erlang", c).LinesPerSecond)} | {YesNo(All(c => At("green", c).LinesPerSecond >= 2 * At("erlang", c).LinesPerSecond))} |");
        md.AppendLine($"| p99: green no worse than async | green / async: {Ratios(c => At("green", c).P99 / At("async", c).P99)} | {YesNo(All(c => At("green", c).P99 <= 1.05 * At("async", c).P99))} |");
        md.AppendLine($"| p99: green at least 2x better than Erlang | erlang / green: {Ratios(c => At("erlang", c).P99 / At("green", c).P99)} | {YesNo(All(c => At("erlang", c).P99 >= 2 * At("green", c).P99))} |");
        var largest = sizes.Max();
        md.AppendLine($"| idle memory per connection at {largest:N0}: at most async's, at most a quarter of Erlang's | green / async {At("green", largest).IdleBytesPerConnection / At("async", largest).IdleBytesPerConnection:N2}, green / erlang {At("green", largest).IdleBytesPerConnection / At("erlang", largest).IdleBytesPerConnection:N2} | {YesNo(At("green", largest).IdleBytesPerConnection <= At("async", largest).IdleBytesPerConnection && 4 * At("green", largest).IdleBytesPerConnection <= At("erlang", largest).IdleBytesPerConnection)} |");
        var misbehavingClean = misbehaved.Values.All(runsOf => runsOf.All(m => m.Result.Lost == 0 && m.Result.Misordered == 0 && m.Result.ConnectionErrors == 0));
        md.AppendLine($"| misbehaving clients: no effect on the well-behaved clients' delivery, the server's memory bounded | lost, misordered and errors among the well-behaved over every server's runs: {misbehaved.Values.Sum(r => r.Sum(m => m.Result.Lost + m.Result.Misordered + m.Result.ConnectionErrors))}; peak resident sets in the table above | {YesNo(misbehavingClean)} (delivery); memory: see the table |");
        var green = CodeLines("samples/ChatServer", "ChatServer.cs", "Connection.cs", "Room.cs", "RoomMessage.cs");
        var async = CodeLines("benchmarks/ThreadIterators.Benchmarks/ChatComparison", "AsyncChatServer.cs", "AsyncConnection.cs", "AsyncRoom.cs", "AsyncRoomMessage.cs");
        var erlang = CodeLines("benchmarks/erlang", "chat_server.erl");
        md.AppendLine($"| code: the green server no longer than the async one | lines that are neither blank nor comments: green {green} (ChatServer, Connection, Room, RoomMessage), async {async} (AsyncChatServer, AsyncConnection, AsyncRoom, AsyncRoomMessage), erlang {erlang}; green / async {(double)green / async:N2}; the options, counters, message kinds and line cutting they share are in neither | {YesNo(green <= async)} |");
        md.AppendLine();
        md.AppendLine("## What limits green against async/await");
        md.AppendLine();
        md.AppendLine("Every socket completion in .NET arrives on a thread-pool thread. The async server runs the connection's");
        md.AppendLine("continuation right there; the green server must hand the connection to one of its own workers (a queue push and,");
        md.AppendLine("when that worker has parked, a futex wake and a context switch), so every read or send that waits costs one handoff");
        md.AppendLine("more, and two OS threads of the green scheduler spin and park beside the thread pool's. The load client shares the");
        md.AppendLine("same two cores, so server CPU spent on handoffs comes out of the client's share and shows as latency. The CPU table");
        md.AppendLine("above measures it in this run; the profile behind this explanation, longer runs and what was tried are in");
        md.AppendLine("[waiting.md](waiting.md#what-a-socket-wait-costs-against-await).");
        md.AppendLine();
        var path = Path.Combine(output, FileName);
        File.WriteAllText(path, md.ToString());
        return path;
    }

    /// <summary>Renders the chart of lines per second and p99 latency against connections into <paramref name="output"/> and returns its path.</summary>
    public static string WriteChart(IReadOnlyList<ChatCompareResult> results, string output)
    {
        var looks = new Dictionary<string, (string Label, string Color)> { ["green"] = ("green threads", "#1f4e9c"), ["async"] = ("async/await", "#16a085"), ["erlang"] = ("Erlang", "#c0392b") };
        List<ChartSeries> Lines(Func<ChatCompareResult, double> y) => ChatCompareCommand.Servers
            .Select((server, index) => new ChartSeries(
                looks[server].Label,
                results.Where(r => r.Server == server).OrderBy(r => r.Load.Connections).Select(r => ((double)r.Load.Connections, y(r))).ToList(),
                looks[server].Color,
                Marker: index % 2 == 0))
            .ToList();

        var throughput = new ChartPanel("Chat server, rooms of 10: median of each server, same machine, same run", "connections", "lines delivered per second", Lines(r => r.LinesPerSecond), LogXBase: 10);
        var latency = new ChartPanel("p99 latency", "connections", "p99 latency (ms), log scale", Lines(r => r.P99 / 1000), LogXBase: 10, LogYBase: 10);
        return ChartFile.Save(Path.Combine(Path.GetFullPath(output), ChartName), 1000, 450, throughput, latency);
    }

    private static string Ms(ChatCompareResult r) => $"{r.P50 / 1000:N1} / {r.P99 / 1000:N1} / {r.P999 / 1000:N1}";

    private static string Kb(ChatCompareResult r) => $"{r.IdleBytesPerConnection / 1024:N1} / {r.BusyBytesPerConnection / 1024:N1} ({r.PeakRss / (1024 * 1024):N0} MB)";

    private static string YesNo(bool met) => met ? "yes" : "no";

    /// <summary>Counts the lines of <paramref name="files"/> in <paramref name="folder"/> that are neither blank nor comments (C#'s // and ///, Erlang's %).</summary>
    private static int CodeLines(string folder, params string[] files) =>
        files.Sum(file => File.ReadLines(Path.Combine(ErlangCommand.RepositoryRoot(), folder, file))
            .Select(line => line.Trim())
            .Count(line => line.Length > 0 && !line.StartsWith("//", StringComparison.Ordinal) && !line.StartsWith('%')));
}
