using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using ThreadIterators.Orleans;

namespace ThreadIterators.Cluster.Benchmarks;

/// <summary>
/// <c>cluster-compare [--quick] [--runs R] [--workers W] [--out DIR]</c>: two nodes of one Orleans cluster, this
/// process and a child, on loopback TCP, so that every message crosses the network stack. Green threads on Orleans
/// (this package) against raw Orleans grain calls, on the same two silos, alternating run by run:
/// a sequential round trip (p50, p99), and a one-way stream at windows of 1 and 1,000 (messages per second, and CPU
/// per message over both processes). Each figure is the median of R runs. Writes <c>cluster-comparison.md</c> into DIR
/// (default: the repository's <c>docs</c>).
/// </summary>
internal static class ClusterCompare
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(5);

    public static async Task<int> RunAsync(string[] args)
    {
        var quick = args.Contains("--quick");
        var runs = quick ? 1 : 5;
        var workers = 2;
        string? output = null;
        for (var i = 1; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--runs" when i + 1 < args.Length:
                    runs = int.Parse(args[++i], CultureInfo.InvariantCulture);
                    break;
                case "--workers" when i + 1 < args.Length:
                    workers = int.Parse(args[++i], CultureInfo.InvariantCulture);
                    break;
                case "--out" when i + 1 < args.Length:
                    output = args[++i];
                    break;
            }
        }

        var pings = quick ? 300 : 3_000;
        var streamOne = quick ? 300 : 3_000;
        var streamMany = quick ? 20_000 : 300_000;
        output ??= FindDocs();
        var clusterId = $"bench-{Guid.NewGuid():N}";
        var (siloA, gatewayA, siloB, gatewayB) = (BenchSilo.FreePort(), BenchSilo.FreePort(), BenchSilo.FreePort(), BenchSilo.FreePort());
        await using var first = await BenchSilo.StartAsync(siloA, gatewayA, primaryPort: null, clusterId, workers).ConfigureAwait(false);
        using var second = await StartNodeAsync(siloB, gatewayB, siloA, clusterId, workers).ConfigureAwait(false);
        try
        {
            var contenders = new Contender[] { new GreenContender(first.Processes), new OrleansContender(first) };

            // A short pass of each first: connections, JIT, activations.
            foreach (var contender in contenders)
            {
                await contender.PingPongAsync(100).ConfigureAwait(false);
                await contender.StreamAsync(1_000, 100).ConfigureAwait(false);
            }

            var results = contenders.ToDictionary(c => c.Name, _ => new List<RunResult>());
            for (var run = 0; run < runs; run++)
            {
                // The order rotates from run to run.
                foreach (var contender in run % 2 == 0 ? contenders : contenders.Reverse())
                {
                    var rtts = await contender.PingPongAsync(pings).ConfigureAwait(false);
                    var one = await Measure(second, () => contender.StreamAsync(streamOne, 1)).ConfigureAwait(false);
                    var many = await Measure(second, () => contender.StreamAsync(streamMany, 1_000)).ConfigureAwait(false);
                    results[contender.Name].Add(new RunResult(
                        Percentile(rtts, 0.50),
                        Percentile(rtts, 0.99),
                        streamOne / one.Seconds,
                        one.CpuMicroseconds / streamOne,
                        streamMany / many.Seconds,
                        many.CpuMicroseconds / streamMany));
                    Console.WriteLine($"run {run + 1}/{runs} {contender.Name}: {results[contender.Name][^1]}");
                }
            }

            var report = Report(results, runs, workers, pings, streamOne, streamMany, quick);
            Directory.CreateDirectory(output);
            var path = Path.Combine(output, "cluster-comparison.md");
            await File.WriteAllTextAsync(path, report).ConfigureAwait(false);
            Console.WriteLine($"wrote {path}");
            return 0;
        }
        finally
        {
            second.StandardInput.Close();
            if (!second.WaitForExit(TimeSpan.FromSeconds(30)))
            {
                second.Kill(entireProcessTree: true);
            }
        }
    }

    private static async Task<(double Seconds, double CpuMicroseconds)> Measure(Process second, Func<Task> work)
    {
        var self = Process.GetCurrentProcess();
        self.Refresh();
        second.Refresh();
        var cpuBefore = self.TotalProcessorTime + second.TotalProcessorTime;
        var clock = Stopwatch.StartNew();
        await work().ConfigureAwait(false);
        clock.Stop();
        self.Refresh();
        second.Refresh();
        var cpu = self.TotalProcessorTime + second.TotalProcessorTime - cpuBefore;
        return (clock.Elapsed.TotalSeconds, cpu.TotalMicroseconds);
    }

    private static async Task<Process> StartNodeAsync(int siloPort, int gatewayPort, int primaryPort, string clusterId, int workers)
    {
        var start = new ProcessStartInfo(Environment.ProcessPath ?? "dotnet")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        if (Path.GetFileNameWithoutExtension(start.FileName) == "dotnet")
        {
            start.ArgumentList.Add(typeof(ClusterCompare).Assembly.Location);
        }

        foreach (var argument in new[] { "cluster-node", $"{siloPort}", $"{gatewayPort}", $"{primaryPort}", clusterId, $"{workers}" })
        {
            start.ArgumentList.Add(argument);
        }

        var node = Process.Start(start) ?? throw new InvalidOperationException("The second node did not start.");
        while (await node.StandardOutput.ReadLineAsync().WaitAsync(Patience).ConfigureAwait(false) is { } line)
        {
            if (line.Trim() == ClusterNode.Ready)
            {
                _ = node.StandardOutput.ReadToEndAsync();
                return node;
            }
        }

        throw new InvalidOperationException($"The second node ended before it was ready (exit code {node.ExitCode}).");
    }

    private static double Percentile(double[] values, double quantile)
    {
        var sorted = values.Order().ToArray();
        return sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(quantile * sorted.Length) - 1)];
    }

    private static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    private static string Report(Dictionary<string, List<RunResult>> results, int runs, int workers, int pings, int streamOne, int streamMany, bool quick)
    {
        var culture = CultureInfo.InvariantCulture;
        var text = new StringBuilder();
        text.AppendLine("# Across two nodes: green threads on Orleans against raw Orleans");
        text.AppendLine();
        text.AppendLine("Written by `dotnet run -c Release --project benchmarks/ThreadIterators.Cluster.Benchmarks -- cluster-compare" + (quick ? " --quick" : string.Empty) + "`.");
        text.AppendLine("Two silos of one cluster, this program and a child process it starts, on loopback TCP: every message crosses the");
        text.AppendLine("network stack. The contenders run on the same two silos, alternating run by run; each figure is the median of the");
        text.AppendLine(culture, $"runs' figures ({runs} runs). Each silo's ThreadIterators scheduler has {workers} workers.");
        text.AppendLine();
        text.AppendLine(culture, $"- Machine: {Field("/proc/cpuinfo", "model name") ?? "unknown"}, {Environment.ProcessorCount} cores; .NET {Environment.Version}; Microsoft Orleans {typeof(global::Orleans.IGrain).Assembly.GetName().Version}.");
        text.AppendLine(culture, $"- Round trip: {pings:N0} sequential round trips. Green: a process on the first node sends a `Ping` carrying its own handle to the echo process on the second, which sends the number back. Orleans: `await grain.Ping(n)` on a grain on the second node.");
        text.AppendLine(culture, $"- Stream: {streamOne:N0} messages at a window of 1, and {streamMany:N0} at a window of 1,000, one way from the first node to the second. Green: sends to the sink process; every 1,000th (or every) message asks the sink for an acknowledgement, which the sender waits for. Orleans: 1,000 (or 1) calls of `grain.Push(n)` in flight, awaited together. CPU is both processes' time over the stream, per message.");
        text.AppendLine();
        text.AppendLine("| contender | round trip p50 (µs) | p99 (µs) | stream, window 1 (msg/s) | CPU (µs/msg) | stream, window 1,000 (msg/s) | CPU (µs/msg) |");
        text.AppendLine("|---|---:|---:|---:|---:|---:|---:|");
        foreach (var (name, rows) in results)
        {
            text.AppendLine(culture, $"| {name} | {Median(rows.Select(r => r.P50)):F1} | {Median(rows.Select(r => r.P99)):F1} | {Median(rows.Select(r => r.StreamOne)):N0} | {Median(rows.Select(r => r.CpuOne)):F1} | {Median(rows.Select(r => r.StreamMany)):N0} | {Median(rows.Select(r => r.CpuMany)):F2} |");
        }

        var green = results["green threads on Orleans"];
        var orleans = results["raw Orleans"];
        var ratio = Median(green.Select(r => r.P50)) / Median(orleans.Select(r => r.P50));
        text.AppendLine();
        text.AppendLine("## Verdicts");
        text.AppendLine();
        text.AppendLine(culture, $"- Sequential round trip within 1.2x of a raw Orleans grain call: {(ratio <= 1.2 ? "met" : "missed")}, {ratio:F2}x at p50.");
        text.AppendLine(culture, $"- Stream at window 1,000: green threads {Median(green.Select(r => r.StreamMany)) / Median(orleans.Select(r => r.StreamMany)):F2}x raw Orleans' messages per second.");
        text.AppendLine("- Not measured here yet: Akka.Remote, Proto.Remote and Erlang distribution (the targets against Proto.Remote and Erlang), the ring across nodes, and node-down time (measured by the package's tests, docs/distribution.md).");
        return text.ToString();
    }

    private static string? Field(string file, string key) =>
        File.Exists(file) ? File.ReadLines(file).FirstOrDefault(l => l.StartsWith(key, StringComparison.Ordinal))?.Split(':', 2)[1].Trim() : null;

    private static string FindDocs()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "ThreadIterators.sln")))
            {
                return Path.Combine(directory.FullName, "docs");
            }
        }

        return Directory.GetCurrentDirectory();
    }

    private sealed record RunResult(double P50, double P99, double StreamOne, double CpuOne, double StreamMany, double CpuMany)
    {
        public override string ToString() =>
            string.Create(CultureInfo.InvariantCulture, $"round trip p50 {P50:F1} µs, p99 {P99:F1} µs; window 1: {StreamOne:N0} msg/s, {CpuOne:F1} µs CPU/msg; window 1,000: {StreamMany:N0} msg/s, {CpuMany:F2} µs CPU/msg");
    }

    /// <summary>One side of the comparison, run from the first node against the second.</summary>
    private abstract class Contender(string name)
    {
        public string Name { get; } = name;

        public abstract Task<double[]> PingPongAsync(int count);

        public abstract Task StreamAsync(int count, int window);
    }

    private sealed class GreenContender(ClusterProcesses processes) : Contender("green threads on Orleans")
    {
        public override async Task<double[]> PingPongAsync(int count)
        {
            var rtts = new double[count];
            var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var echo = processes.Get<Ping>("echo");
            ProcessRef<long>? self = null;
            IEnumerable<Event> Pinger(Mailbox<long> inbox)
            {
                var next = inbox.Recv();
                yield return next;
                for (var i = 0; i < count; i++)
                {
                    var start = Stopwatch.GetTimestamp();
                    echo.Send(new Ping(i, self!));
                    yield return next;
                    rtts[i] = Stopwatch.GetElapsedTime(start).TotalMicroseconds;
                }

                done.TrySetResult();
            }

            self = await processes.SpawnAsync<long>($"pinger/{Guid.NewGuid():N}", Pinger).ConfigureAwait(false);
            self.Send(-1);
            await done.Task.WaitAsync(Patience).ConfigureAwait(false);
            return rtts;
        }

        public override async Task StreamAsync(int count, int window)
        {
            var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var sink = processes.Get<StreamItem>("sink");
            ProcessRef<long>? self = null;
            IEnumerable<Event> Streamer(Mailbox<long> inbox)
            {
                var next = inbox.Recv();
                yield return next;
                for (var i = 0; i < count; i++)
                {
                    var ack = i % window == window - 1 || i == count - 1;
                    sink.Send(new StreamItem(i, ack ? self : null));
                    if (ack)
                    {
                        yield return next;
                    }
                }

                done.TrySetResult();
            }

            self = await processes.SpawnAsync<long>($"streamer/{Guid.NewGuid():N}", Streamer).ConfigureAwait(false);
            self.Send(-1);
            await done.Task.WaitAsync(Patience).ConfigureAwait(false);
        }
    }

    private sealed class OrleansContender(BenchSilo silo) : Contender("raw Orleans")
    {
        private readonly IEchoGrain _grain = silo.Grains.GetGrain<IEchoGrain>("echo");

        public override async Task<double[]> PingPongAsync(int count)
        {
            var rtts = new double[count];
            for (var i = 0; i < count; i++)
            {
                var start = Stopwatch.GetTimestamp();
                await _grain.Ping(i).ConfigureAwait(false);
                rtts[i] = Stopwatch.GetElapsedTime(start).TotalMicroseconds;
            }

            return rtts;
        }

        public override async Task StreamAsync(int count, int window)
        {
            var inFlight = new List<Task>(window);
            for (var i = 0; i < count; i++)
            {
                inFlight.Add(_grain.Push(i));
                if (inFlight.Count == window || i == count - 1)
                {
                    await Task.WhenAll(inFlight).ConfigureAwait(false);
                    inFlight.Clear();
                }
            }
        }
    }
}
