using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// <c>chat-compare [--runs R] [--connections C1,C2,...] [--workers W] [--quick] [--out DIR]</c>: the chat server
/// on green threads, with async/await and in Erlang, each in a process of its own on W OS threads (W schedulers for
/// Erlang), under the same load from this process: C connections in rooms of 10, each sending its lines as fast as
/// the room takes them. The servers alternate, the order rotating from run to run; each result is the median of R
/// runs. Writes <c>server-comparison.md</c> and its chart into DIR (default: the repository's <c>docs</c>).
/// </summary>
internal static class ChatCompareCommand
{
    /// <summary>The servers, in the order of the first run.</summary>
    public static readonly string[] Servers = ["green", "async", "erlang"];

    private const string Usage = "usage: chat-compare [--runs R] [--connections C1,C2,...] [--workers W] [--quick] [--out DIR]";

    private const int RoomSize = 10;

    private const int MisbehavingLineBytes = 1_000;

    public static int Execute(string[] args)
    {
        var runs = 3;
        var workers = Environment.ProcessorCount;
        int[] sizes = [100, 1_000, 10_000];

        // The misbehaving-clients run: its connections, and the lines each well-behaved one sends, of a kilobyte, so
        // that a stalled client's backlog (24 MB) passes its socket buffers and the outbound capacity, and is dropped.
        var misbehavingConnections = 100;
        var misbehavingLines = 3_000;
        string? output = null;
        for (var i = 1; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--quick":
                    sizes = [20, 100];
                    runs = 1;
                    misbehavingConnections = 100;
                    misbehavingLines = 50;
                    break;
                case "--runs" when i + 1 < args.Length && int.TryParse(args[i + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out runs) && runs >= 1:
                    i++;
                    break;
                case "--workers" when i + 1 < args.Length && int.TryParse(args[i + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out workers) && workers >= 1:
                    i++;
                    break;
                case "--connections" when i + 1 < args.Length:
                    sizes = args[++i].Split(',').Select(s => int.Parse(s, CultureInfo.InvariantCulture)).ToArray();
                    break;
                case "--out" when i + 1 < args.Length:
                    output = args[++i];
                    break;
                default:
                    Console.Error.WriteLine($"unknown or incomplete argument '{args[i]}'\n{Usage}");
                    return 2;
            }
        }

        var total = Stopwatch.StartNew();
        var root = ErlangCommand.RepositoryRoot();
        output ??= Path.Combine(root, "docs");
        var tools = DebianTools.Require([("erl", "erlang-nox"), ("erlc", "erlang-nox")], Progress);
        // A build directory of its own: the Erlang comparison compiles into AppContext.BaseDirectory's, and the two may run at once.
        var ebin = Directory.CreateTempSubdirectory("chat-comparison-erlang-");
        var erlang = ErlangRuntime.Compile(tools["erl"], tools["erlc"], Path.Combine(root, "benchmarks", "erlang"), ebin.FullName);
        Progress($"{erlang.Version}; .NET {Environment.Version}; {Environment.ProcessorCount} cores; {runs} run(s) per server per size");

        var serverOptions = new ChatOptions { Port = 0, Workers = workers };
        var results = new List<ChatCompareResult>();
        var run = 0;
        foreach (var connections in sizes)
        {
            var load = new ChatLoadOptions { Connections = connections, RoomSize = RoomSize, Lines = LinesAt(connections) };
            var byServer = Servers.ToDictionary(s => s, s => new List<ChatLoadResult>());
            for (var r = 0; r < runs; r++, run++)
            {
                foreach (var server in Servers.Skip(run % Servers.Length).Concat(Servers.Take(run % Servers.Length)))
                {
                    Progress($"C = {connections:N0}, run {r + 1} of {runs}: {server} ({total.Elapsed:mm\\:ss} so far)");
                    byServer[server].Add(RunOnce(server, serverOptions, load, erlang));
                }
            }

            results.AddRange(Servers.Select(s => new ChatCompareResult(s, load, byServer[s])));
        }

        // Misbehaving clients: one in ten never reads after joining, one in ten vanishes mid-line.
        var misbehaving = new ChatLoadOptions { Connections = misbehavingConnections, RoomSize = RoomSize, Lines = misbehavingLines, LineBytes = MisbehavingLineBytes, Misbehaving = true };
        var misbehaved = Servers.ToDictionary(s => s, s => new List<(ChatLoadResult Result, long Dropped)>());
        for (var r = 0; r < runs; r++, run++)
        {
            foreach (var server in Servers.Skip(run % Servers.Length).Concat(Servers.Take(run % Servers.Length)))
            {
                Progress($"misbehaving clients, C = {misbehaving.Connections:N0}, run {r + 1} of {runs}: {server} ({total.Elapsed:mm\\:ss} so far)");
                misbehaved[server].Add(RunMisbehaving(server, serverOptions, misbehaving, erlang));
            }
        }

        Directory.CreateDirectory(output);
        var chart = ChatReport.WriteChart(results, output);
        var report = ChatReport.Write(results, misbehaved, erlang.Version, workers, runs, serverOptions, chart, output, total.Elapsed);
        Progress($"wrote {report} and {chart} in {total.Elapsed:mm\\:ss}");
        ebin.Delete(recursive: true);
        return results.All(r => r.Clean) && misbehaved.Values.All(runs => runs.All(m => m.Result.Clean)) ? 0 : 1;
    }

    /// <summary>Lines per connection: fewer at the largest sizes, so a full run stays within its time.</summary>
    internal static int LinesAt(int connections) => connections >= 10_000 ? 20 : connections >= 1_000 ? 50 : 200;

    private static ChatLoadResult RunOnce(string server, ChatOptions options, ChatLoadOptions load, ErlangRuntime erlang)
    {
        using var process = server == "erlang" ? ChatServerProcess.Erlang(erlang, options) : ChatServerProcess.DotNet(server, options);
        var result = ChatLoad.RunAsync(load with { Port = process.Port, ServerPid = process.ProcessId }).GetAwaiter().GetResult();
        Progress($"  {result.LinesPerSecond:N0} lines/s, p99 {result.P99Microseconds / 1000:N1} ms, idle {result.IdleBytesPerConnection / 1024:N1} KB per connection{(result.Clean ? string.Empty : $", NOT CLEAN: lost {result.Lost}, misordered {result.Misordered}, connection errors {result.ConnectionErrors}")}");
        return result;
    }

    private static (ChatLoadResult Result, long Dropped) RunMisbehaving(string server, ChatOptions options, ChatLoadOptions load, ErlangRuntime erlang)
    {
        using var process = server == "erlang" ? ChatServerProcess.Erlang(erlang, options) : ChatServerProcess.DotNet(server, options);
        var result = ChatLoad.RunAsync(load with { Port = process.Port, ServerPid = process.ProcessId }).GetAwaiter().GetResult();

        // The server prints its counts each second they change: let the last drops reach its output.
        System.Threading.Thread.Sleep(TimeSpan.FromSeconds(1.5));
        var dropped = process.Counters.DroppedSlow;
        Progress($"  well-behaved: {result.LinesPerSecond:N0} lines/s, lost {result.Lost}, misordered {result.Misordered}, connection errors {result.ConnectionErrors}; dropped {dropped}; peak {result.ServerRssPeak / (1024 * 1024):N0} MB");
        return (result, dropped);
    }

    private static void Progress(string line) => Console.Error.WriteLine(line);
}
