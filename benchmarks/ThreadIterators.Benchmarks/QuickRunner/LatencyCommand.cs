using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Text.Json;
using System.Threading;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// <c>latency [--workers 1,2] [--impl threaditerators,tasks] [--policy NAME[,NAME]|all] [--runs R] [--seconds S]
/// [--warmup MS] [--clients C] [--fanout F] [--work STEPS] [--completers N] [--senders N] [--heartbeat MS] [--json]</c>: how late
/// threads woken from outside the workers (a sleeping heartbeat, completions sent by plain OS threads) run while a
/// broadcast hub and its clients keep every worker busy, and the hub's throughput (see <see cref="LatencyRun"/>).
/// Each implementation, worker count and policy runs in a child process of its own, which warms up and measures R
/// runs on one scheduler (or one thread pool) and prints each as a JSON line; this process prints those lines, a
/// median line per configuration, and a table of the medians (not with <c>--json</c>). Progress goes to standard
/// error. Exits with 1 if a child failed or a run was inconsistent (a completion sent was not received).
/// </summary>
/// <remarks>
/// The tasks implementation's child limits the thread pool to the worker count: it lowers the pool's minimum to W
/// and then its maximum to W (<see cref="ThreadPool.SetMinThreads"/>, <see cref="ThreadPool.SetMaxThreads"/>, the
/// I/O completion counts left as they were), and reports whether the pool accepted the limit and how many pool
/// threads it saw.
/// </remarks>
internal static class LatencyCommand
{
    private const string Usage =
        "usage: latency [--workers 1,2] [--impl threaditerators,tasks] [--policy workstealing|softaffinity|dedicated|shared[,...]|all]\n" +
        "               [--runs R] [--seconds S] [--warmup MS] [--clients C] [--fanout F] [--work STEPS] [--completers N]\n" +
        "               [--senders N] [--heartbeat MS] [--completion task|channel] [--json]\n" +
        "  A hub forwards each of C clients' (1000) messages to F clients in rotation (default: all C); each client computes\n" +
        "  --work xorshift steps (50) per message. A heartbeat sleeps --heartbeat ms (10) and records how late it wakes;\n" +
        "  --senders OS threads (2) send a timestamp about every millisecond to one of --completers parked threads (16):\n" +
        "  green completers wait on a task the OS thread completes (task), or on a channel read (channel), whose\n" +
        "  continuation the channel runs on the thread pool; async/await completers always await a channel read.\n" +
        "  Each configuration runs in its own process: R runs (3) of S seconds (5), each after MS milliseconds (1000) of\n" +
        "  warm-up. --json prints the JSON lines without the table.";

    /// <summary>The implementations, in the order they run.</summary>
    private static readonly string[] Implementations = [Implementation.GreenThreads, Implementation.Tasks];

    public static int Execute(string[] args)
    {
        if (args.Contains("--help") || args.Contains("-h"))
        {
            Console.WriteLine(Usage);
            return 0;
        }

        if (!Settings.TryParse(args, out var settings, out var error))
        {
            Console.Error.WriteLine(error);
            Console.Error.WriteLine(Usage);
            return 2;
        }

        return settings.Child ? RunChild(settings) : RunParent(settings);
    }

    /// <summary>Runs every configuration in a child process and prints their lines, the medians and the table.</summary>
    private static int RunParent(Settings settings)
    {
        var configurations = new List<(string Implementation, int Workers, SchedulingPolicy? Policy)>();
        foreach (var implementation in Implementations.Where(settings.Implementations.Contains))
        {
            foreach (var workers in settings.Workers)
            {
                if (implementation == Implementation.GreenThreads)
                {
                    configurations.AddRange(settings.Policies.Select(p => (implementation, workers, (SchedulingPolicy?)p)));
                }
                else
                {
                    configurations.Add((implementation, workers, null));
                }
            }
        }

        var options = settings.Options;
        var perRun = options.WarmUp + options.Window + LatencyRun.DrainTimeout + LatencyRun.DrainTimeout;
        var timeout = TimeSpan.FromMinutes(2) + (perRun * settings.Runs);
        var rows = new List<(string Implementation, int Workers, string Policy, bool PoolLimited, double WorkNs, LatencyFigures Median)>();
        var failures = 0;
        for (var c = 0; c < configurations.Count; c++)
        {
            var (implementation, workers, policy) = configurations[c];
            var policyName = policy is { } p ? CommandLine.NameOf(p) : string.Empty;
            Console.Error.WriteLine($"[{c + 1}/{configurations.Count}] {implementation} workers={workers}{(policy is null ? " (thread pool)" : " policy=" + policyName)}");
            List<string> arguments =
            [
                "latency", "--child", "--impl", implementation, "--workers", Invariant(workers),
                "--runs", Invariant(settings.Runs), .. settings.OptionArguments(),
            ];
            if (policy is not null)
            {
                arguments.AddRange(["--policy", policyName]);
            }

            ChildProcess.Outcome child;
            try
            {
                child = ChildProcess.RunSelf(arguments, timeout);
            }
            catch (TimeoutException timedOut)
            {
                child = new ChildProcess.Outcome(-1, [], timedOut.Message + Environment.NewLine);
            }

            Console.Error.Write(child.Error);
            var runs = new List<LatencyFigures>();
            var workNs = new List<double>();
            var poolLimited = true;
            foreach (var line in child.Lines.Where(l => l.StartsWith('{')))
            {
                Console.WriteLine(line);
                using var json = JsonDocument.Parse(line);
                var figures = LatencyFigures.Read(json.RootElement);
                poolLimited &= json.RootElement.GetProperty("pool_limited").GetBoolean();
                workNs.Add(json.RootElement.GetProperty("work_ns_per_message").GetDouble());
                runs.Add(figures);
                Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"    run {runs.Count}: heartbeat late p99 {figures.HeartbeatP99Ms:F1} ms, completion p99 {figures.CompletionP99Ms:F1} ms, {figures.MessagesPerSecond / 1e6:F2} M msg/s{(figures.Ok ? string.Empty : " INCONSISTENT")}"));
            }

            if (child.ExitCode != 0 || runs.Count != settings.Runs)
            {
                Console.Error.WriteLine($"    the child exited with code {child.ExitCode} after {runs.Count} of {settings.Runs} runs");
                failures++;
            }

            failures += runs.Count(r => !r.Ok);
            if (runs.Count == 0)
            {
                continue;
            }

            var median = LatencyFigures.Median(runs);
            var ok = runs.All(r => r.Ok) && runs.Count == settings.Runs;
            PrintLine(implementation, workers, policyName, settings.Options, "median", poolLimited, Measurement.MedianOf(workNs), median, ok);
            rows.Add((implementation, workers, policyName, poolLimited, Measurement.MedianOf(workNs), median));
        }

        if (!settings.Json)
        {
            PrintTable(settings, rows);
        }

        if (failures > 0 || rows.Count == 0)
        {
            Console.Error.WriteLine(failures > 0 ? $"{failures} child process(es) or run(s) failed or were inconsistent." : "no configuration produced a result.");
            return 1;
        }

        return 0;
    }

    /// <summary>Measures one configuration, its runs one after another in this process, and prints a JSON line for each.</summary>
    private static int RunChild(Settings settings)
    {
        var implementation = settings.Implementations.Single();
        var workers = settings.Workers.Single();
        var green = implementation == Implementation.GreenThreads;
        var policy = settings.Policies.Single();
        var poolLimited = green || PoolLimit.Apply(workers);
        var workNs = LatencyWork.Nanoseconds(settings.Options.Work);
        try
        {
            using var scheduler = green ? new Scheduler(new SchedulerOptions { WorkerCount = workers, Policy = policy }) : null;
            for (var run = 1; run <= settings.Runs; run++)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
                var probe = new LatencyProbe(settings.Options.Clients, settings.Options.Completers, settings.Options.Work);
                ILatencyLoad load = green ? new GreenLatencyLoad(scheduler!, settings.Options, probe) : new TaskLatencyLoad(settings.Options, probe);
                var result = LatencyRun.Measure(load, probe, settings.Options);
                using var process = Process.GetCurrentProcess();
                var figures = LatencyFigures.From(result, process.PeakWorkingSet64);
                PrintLine(implementation, workers, green ? CommandLine.NameOf(policy) : string.Empty, settings.Options, Invariant(run), poolLimited, workNs, figures, figures.Ok);
            }
        }
        catch (TimeoutException timedOut)
        {
            Console.Error.WriteLine(timedOut.Message);
            return 1;
        }

        return 0;
    }

    private static void PrintLine(string implementation, int workers, string policy, LatencyOptions options, string run, bool poolLimited, double workNs, LatencyFigures figures, bool ok)
    {
        JsonLine.Print(json =>
        {
            json.WriteString("workload", "latency");
            json.WriteString("parameters", options.Describe());
            json.WriteString("implementation", implementation);
            json.WriteNumber("workers", workers);
            json.WriteString("policy", policy);
            json.WriteBoolean("pool_limited", poolLimited);
            json.WriteNumber("work_ns_per_message", Math.Round(workNs, 1));
            json.WriteString("run", run);
            figures.Write(json);
            json.WriteBoolean("ok", ok);
        });
    }

    private static void PrintTable(Settings settings, List<(string Implementation, int Workers, string Policy, bool PoolLimited, double WorkNs, LatencyFigures Median)> rows)
    {
        Console.WriteLine();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Medians of {settings.Runs} run(s) of {settings.Options.Window.TotalSeconds:0.###} s, each after {settings.Options.WarmUp.TotalMilliseconds:0} ms of warm-up; {settings.Options.Describe()}; {MachineInfo.Processor}, .NET {Environment.Version}; each configuration in its own process. Latencies in ms: heartbeat = how late a {settings.Options.Heartbeat.TotalMilliseconds:0.###} ms sleep wakes; completion = OS thread's timestamp to the completer running. 'tasks' runs on the thread pool limited to the worker count (* where the limit did not take)."));
        Console.WriteLine();
        Console.WriteLine("| implementation | workers | policy | heartbeat p50 | heartbeat p99 | heartbeat max | completion p50 | completion p99 | completion max | local msg/s | CPU cores busy | work ns/msg | peak WS (MB) |");
        Console.WriteLine("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var (implementation, workers, policy, poolLimited, workNs, m) in rows)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {implementation} | {workers}{(poolLimited ? string.Empty : "*")} | {(policy.Length == 0 ? "pool" : policy)} | {m.HeartbeatP50Ms:F1} | {m.HeartbeatP99Ms:F1} | {m.HeartbeatMaxMs:F1} | {m.CompletionP50Ms:F2} | {m.CompletionP99Ms:F1} | {m.CompletionMaxMs:F1} | {m.MessagesPerSecond / 1e6:F2} M | {m.CpuCoresBusy:F2} | {workNs:F0} | {m.PeakWorkingSetBytes / (1024 * 1024)} |"));
        }
    }

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>The parsed command line.</summary>
    private sealed class Settings
    {
        private int? _fanout;

        public IReadOnlyList<int> Workers { get; private set; } = [1, 2];

        public HashSet<string> Implementations { get; private set; } = LatencyCommand.Implementations.ToHashSet();

        public IReadOnlyList<SchedulingPolicy> Policies { get; private set; } = [Scheduler.DefaultPolicy];

        public int Runs { get; private set; } = 3;

        public bool Json { get; private set; }

        /// <summary>Gets a value indicating whether this process is a child measuring one configuration.</summary>
        public bool Child { get; private set; }

        public LatencyOptions Options { get; private set; } = LatencyOptions.Default;

        /// <summary>Gets the options a child needs to run the same sizes.</summary>
        public IEnumerable<string> OptionArguments() =>
        [
            "--seconds", Options.Window.TotalSeconds.ToString("R", CultureInfo.InvariantCulture),
            "--warmup", Options.WarmUp.TotalMilliseconds.ToString("R", CultureInfo.InvariantCulture),
            "--clients", Invariant(Options.Clients),
            "--fanout", Invariant(Options.Fanout),
            "--work", Invariant(Options.Work),
            "--completers", Invariant(Options.Completers),
            "--senders", Invariant(Options.Senders),
            "--heartbeat", Options.Heartbeat.TotalMilliseconds.ToString("R", CultureInfo.InvariantCulture),
            "--completion", Options.ChannelCompletions ? "channel" : "task",
        ];

        public static bool TryParse(string[] args, out Settings settings, out string error)
        {
            settings = new Settings();
            error = string.Empty;
            for (var i = args.Length > 0 && args[0] == "latency" ? 1 : 0; i < args.Length; i++)
            {
                var arg = args[i];
                var value = i + 1 < args.Length ? args[i + 1] : null;
                var number = double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var parsed) && double.IsFinite(parsed) ? parsed : double.NaN;
                var whole = number >= 1 && number <= int.MaxValue && number == Math.Floor(number) ? (int)number : 0;
                switch (arg)
                {
                    case "--json":
                        settings.Json = true;
                        continue;
                    case "--child":
                        settings.Child = true;
                        continue;
                    case "--workers" when value is not null && TryParseCounts(value, out var counts):
                        settings.Workers = counts;
                        break;
                    case "--impl" when value is not null && value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) is { Length: > 0 } names
                                                         && names.All(n => LatencyCommand.Implementations.Contains(n, StringComparer.OrdinalIgnoreCase)):
                        settings.Implementations = names.Select(n => n.ToLowerInvariant()).ToHashSet();
                        break;
                    case "--policy" when CommandLine.TryParsePolicies(value, out var policies):
                        settings.Policies = policies;
                        break;
                    case "--runs" when whole > 0:
                        settings.Runs = whole;
                        break;
                    case "--seconds" when number > 0 && number <= 3600:
                        settings.Options = settings.Options with { Window = TimeSpan.FromSeconds(number) };
                        break;
                    case "--warmup" when number >= 0 && number <= 3_600_000:
                        settings.Options = settings.Options with { WarmUp = TimeSpan.FromMilliseconds(number) };
                        break;
                    case "--completion" when value is "task" or "channel":
                        settings.Options = settings.Options with { ChannelCompletions = value == "channel" };
                        break;
                    case "--heartbeat" when number > 0 && number <= 60_000:
                        settings.Options = settings.Options with { Heartbeat = TimeSpan.FromMilliseconds(number) };
                        break;
                    case "--clients" when whole > 0:
                        settings.Options = settings.Options with { Clients = whole };
                        break;
                    case "--fanout" when whole > 0:
                        settings._fanout = whole;
                        break;
                    case "--work" when number == 0 || whole > 0:
                        settings.Options = settings.Options with { Work = whole };
                        break;
                    case "--completers" when whole > 0:
                        settings.Options = settings.Options with { Completers = whole };
                        break;
                    case "--senders" when whole > 0:
                        settings.Options = settings.Options with { Senders = whole };
                        break;
                    default:
                        error = value is null || arg is "--json" or "--child" ? $"unknown argument '{arg}'." : $"bad value for {arg}: '{value}'.";
                        return false;
                }

                i++;
            }

            var options = settings.Options;
            settings.Options = options with { Fanout = settings._fanout ?? options.Clients };
            if (settings.Options.Fanout > options.Clients)
            {
                error = $"--fanout ({settings.Options.Fanout}) must not exceed --clients ({options.Clients}).";
                return false;
            }

            if (settings.Child && (settings.Implementations.Count != 1 || settings.Workers.Count != 1 || settings.Policies.Count != 1))
            {
                error = "--child measures one implementation, one worker count and one policy.";
                return false;
            }

            return true;
        }

        private static bool TryParseCounts(string value, out IReadOnlyList<int> counts)
        {
            var list = new List<int>();
            foreach (var part in value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                if (!int.TryParse(part, NumberStyles.Integer, CultureInfo.InvariantCulture, out var count) || count is < 1 or > 256)
                {
                    counts = [];
                    return false;
                }

                list.Add(count);
            }

            counts = list;
            return list.Count > 0;
        }
    }
}
