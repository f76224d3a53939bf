using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// The quick runner: <c>run [workload] [--n N] [--m M] [--hops H] [--workers W] [--impl NAME[,NAME]] [--runs R] [--json] [--tracing none|idle|traced]</c>.
/// It prints each run and the median, verifies every result, and exits with 1 if any was wrong. With no workload it
/// runs a short comparison of every workload against its baselines and prints one table.
/// </summary>
internal static class Runner
{
    private const string Usage =
        "usage: run [ring|threadring|parallelthreadring|pingpong|countingactor|producerconsumer|skynet|cacheaffinity]\n" +
        "           [--n N] [--m M] [--hops H] [--actors A] [--state S] [--accesses K] [--workers W]\n" +
        "           [--policy workstealing|softaffinity|dedicated|shared[,...]|all]\n" +
        "           [--impl threaditerators|tasks|threads|threadpool|akka|protoactor[,...]] [--runs R] [--warmup MS] [--json]\n" +
        "           [--tracing none|idle|traced]\n" +
        "  ring: --n forwarders, --m messages; threadring, parallelthreadring: --hops; pingpong, countingactor,\n" +
        "  producerconsumer: --m messages; skynet: --n leaves (a power of ten); cacheaffinity: --actors, --state\n" +
        "  bytes per actor (64, 4KB, 3.2MB), --accesses per message, --m messages. Without --workers, each\n" +
        "  implementation runs with 1 and with 2: green threads on that many workers, those on the thread pool\n" +
        "  (tasks, threadpool, akka, protoactor) in a process whose pool has that many threads. Without --policy,\n" +
        "  green threads use the default policy. With no workload, a short comparison of every workload is printed\n" +
        "  as a table.";

    /// <summary>How long each configuration warms up before its measured runs, unless <c>--warmup</c> says otherwise.</summary>
    public const int WarmUpMilliseconds = 1500;

    public static int Execute(string[] args) => Execute(args, Catalogue.All);

    /// <summary>Runs the command line against <paramref name="catalogue"/>; tests pass their own workloads.</summary>
    internal static int Execute(string[] args, IReadOnlyList<WorkloadSpec> catalogue)
    {
        if (args.Contains("--help") || args.Contains("-h"))
        {
            Console.WriteLine(Usage);
            return 0;
        }

        if (!CommandLine.TryParse(args, catalogue, out var command, out var error))
        {
            Console.Error.WriteLine(error);
            Console.Error.WriteLine(Usage);
            return 2;
        }

        return command.Workload is null ? Comparison.Run(command) : RunOne(command);
    }

    private static int RunOne(CommandLine command)
    {
        var spec = command.Workload!;
        var sizes = command.Sizes(spec.Defaults);
        var wrong = 0;
        foreach (var implementation in spec.Implementations.Where(i => command.Implementations is null || command.Implementations.Contains(i.Name)))
        {
            foreach (var workers in implementation.On == RunsOn.OwnThreads ? [0] : command.Workers)
            {
                if (implementation.On == RunsOn.ThreadPool && PoolLimit.ThisProcess != workers)
                {
                    wrong += RunOnLimitedPool(command, spec, implementation, workers, sizes);
                    continue;
                }

                foreach (var policy in implementation.On == RunsOn.Scheduler ? command.Policies : [Scheduler.DefaultPolicy])
                {
                    var setup = new RunSetup(implementation, workers, policy);
                    var runs = Measure(spec, setup, sizes, command.Runs, command.WarmUpMilliseconds, (run, m) => Print(command, spec, setup, sizes, run.ToString(CultureInfo.InvariantCulture), m));
                    var median = Measurement.Median(runs);
                    Print(command, spec, setup, sizes, "median", median);
                    if (TracingMode.Current.Name != "none" && !command.Json)
                    {
                        Console.WriteLine($"tracing {TracingMode.Current.Name}: {TracingMode.Current.Spans:N0} spans given to the listener so far");
                    }

                    wrong += runs.Count(r => r.Result != spec.Expected(implementation.Resize?.Invoke(sizes) ?? sizes));
                }
            }
        }

        if (wrong > 0)
        {
            Console.Error.WriteLine($"{wrong} run(s) computed a wrong result.");
            return 1;
        }

        return 0;
    }

    /// <summary>
    /// Runs an implementation on the thread pool in a child process whose pool is limited to
    /// <paramref name="workers"/> threads (see <see cref="PoolLimit"/>), prints what it printed, and returns 1 if it
    /// failed or computed a wrong result.
    /// </summary>
    private static int RunOnLimitedPool(CommandLine command, WorkloadSpec spec, Implementation implementation, int workers, RunOptions sizes)
    {
        List<string> arguments =
        [
            "run", spec.Name, "--impl", implementation.Name, "--workers", workers.ToString(CultureInfo.InvariantCulture),
            "--runs", command.Runs.ToString(CultureInfo.InvariantCulture), "--warmup", command.WarmUpMilliseconds.ToString(CultureInfo.InvariantCulture),
            .. sizes.Arguments(),
        ];
        if (command.Json)
        {
            arguments.Add("--json");
        }

        var (fileName, all) = ChildProcess.Self(arguments);
        var child = ChildProcess.Run(fileName, all, TimeSpan.FromMinutes(30), PoolLimit.ChildEnvironment(workers));
        foreach (var line in child.Lines)
        {
            Console.WriteLine(line);
        }

        Console.Error.Write(child.Error);
        return child.ExitCode == 0 ? 0 : 1;
    }

    /// <summary>
    /// Runs a workload untimed at a tenth of its size for at least 1.5 s, then <paramref name="runs"/> times measured.
    /// Tiered compilation needs that long to promote the hot methods: after half a second, 3 of 16 fresh processes
    /// still ran a short ring (N = 64 or 256, M = 1000, 1 worker) 3 to 4 times slower in their first runs.
    /// </summary>
    public static List<Measurement> Measure(WorkloadSpec spec, RunSetup setup, RunOptions sizes, int runs, int warmUpMilliseconds = WarmUpMilliseconds, Action<int, Measurement>? each = null)
    {
        var implementation = setup.Implementation;
        sizes = implementation.Resize?.Invoke(sizes) ?? sizes;
        if (implementation.On == RunsOn.ThreadPool && PoolLimit.ThisProcess == setup.Workers && !PoolLimit.Apply(setup.Workers))
        {
            throw new InvalidOperationException($"the thread pool refused a limit of {setup.Workers} thread(s) in a process started for it.");
        }

        using var host = new RunHost(implementation.On == RunsOn.Scheduler ? new Scheduler(new SchedulerOptions { WorkerCount = setup.Workers, Policy = setup.Policy }) : null);
        var warmUp = WarmUpSizes(spec, sizes);
        var warmUpTime = System.Diagnostics.Stopwatch.StartNew();
        while (warmUpTime.ElapsedMilliseconds < warmUpMilliseconds)
        {
            implementation.Run(host, warmUp);
        }

        var measurements = new List<Measurement>();
        for (var run = 1; run <= runs; run++)
        {
            var measurement = Measurement.Take(spec.Messages(sizes), () => TracingMode.Current.Around(() => implementation.Run(host, sizes)));
            measurements.Add(measurement);
            each?.Invoke(run, measurement);
        }

        return measurements;
    }

    /// <summary>
    /// A tenth of the work, cut where it keeps the run's shape: Skynet and the ring get a tenth of the threads, so
    /// the ring's mailboxes still fill as deep as in the measured run and their growth paths are compiled and
    /// tiered up before it starts. (A tenth of the ring's messages left them shallow; the first measured runs of a
    /// short ring then ran up to 4x slower on code still at tier 0.) The others get a tenth of their messages.
    /// </summary>
    internal static RunOptions WarmUpSizes(WorkloadSpec spec, RunOptions sizes) => spec.Name switch
    {
        "skynet" => sizes with { N = Math.Max(1, sizes.N / 10) },
        "ring" => sizes with { N = Math.Max(1, sizes.N / 10) },
        _ => sizes with { M = sizes.M / 10, Hops = sizes.Hops / 10 },
    };

    /// <summary>The most worker threads the thread pool may have: the limit the pool implementations run under.</summary>
    private static int PoolThreadsMax()
    {
        System.Threading.ThreadPool.GetMaxThreads(out var threads, out _);
        return threads;
    }

    private static void Print(CommandLine command, WorkloadSpec spec, RunSetup setup, RunOptions sizes, string run, Measurement m)
    {
        var (implementation, workers, policy) = setup;
        sizes = implementation.Resize?.Invoke(sizes) ?? sizes;
        var expected = spec.Expected(sizes);
        if (command.Json)
        {
            JsonLine.Print(json =>
            {
                json.WriteString("workload", spec.Name);
                json.WriteString("parameters", spec.Describe(sizes));
                json.WriteString("implementation", implementation.Name);
                json.WriteNumber("workers", workers);
                json.WriteString("policy", implementation.On == RunsOn.Scheduler ? CommandLine.NameOf(policy) : string.Empty);
                json.WriteString("run", run);
                json.WriteNumber("pool_threads_max", PoolThreadsMax());
                json.WriteNumber("elapsed_ms", Math.Round(m.ElapsedMs, 3));
                json.WriteNumber("messages", m.Messages);
                json.WriteNumber("messages_per_second", Math.Round(m.MessagesPerSecond));
                json.WriteNumber("ns_per_message", Math.Round(m.NsPerMessage, 3));
                json.WriteNumber("allocated_bytes", m.AllocatedBytes);
                json.WriteNumber("gen0_collections", m.Gen0);
                json.WriteNumber("gen1_collections", m.Gen1);
                json.WriteNumber("gen2_collections", m.Gen2);
                json.WriteNumber("gc_pause_ms", Math.Round(m.GcPauseMs, 3));
                json.WriteNumber("peak_working_set_bytes", m.PeakWorkingSetBytes);
                json.WriteNumber("result", m.Result);
                json.WriteNumber("expected", expected);
                json.WriteBoolean("ok", m.Result == expected);
            });
            return;
        }

        var workerText = implementation.On switch
        {
            RunsOn.Scheduler => $"workers={workers} policy={CommandLine.NameOf(policy)}",
            RunsOn.ThreadPool => $"pool threads={workers}",
            _ => "own threads",
        };
        var verdict = m.Result == expected ? "OK" : $"WRONG (expected {expected})";
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{spec.Name} {spec.Describe(sizes)} | {implementation.Name} {workerText} | {(run == "median" ? "median" : "run " + run)} | {m.ElapsedMs:F1} ms | {m.MessagesPerSecond / 1e6:F1} M msg/s | {m.NsPerMessage:F2} ns/msg | {m.BytesPerMessage:F3} B/msg ({m.AllocatedBytes} B) | gc {m.Gen0}/{m.Gen1}/{m.Gen2}, paused {m.GcPauseMs:F1} ms | peak ws {m.PeakWorkingSetBytes / (1024 * 1024)} MB | result {m.Result} {verdict}"));
    }
}
