using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.Json;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Tests;

/// <summary>The quick runner's contract: one JSON object per run and per median, and a failing exit code for a wrong result.</summary>
[Collection(MeasurementsRunAlone.Name)]
public sealed class QuickRunnerTests
{
    private static readonly string[] Fields =
    [
        "workload", "parameters", "implementation", "workers", "run", "pool_threads_max", "elapsed_ms", "messages", "messages_per_second",
        "ns_per_message", "allocated_bytes", "gen0_collections", "gen1_collections", "gen2_collections",
        "peak_working_set_bytes", "result", "expected", "ok",
    ];

    [Fact]
    public void Json_PrintsEveryRunAndTheMedianWithAllFields_AndExitsZero()
    {
        var (exitCode, output) = Execute(["run", "threadring", "--hops", "5030", "--workers", "2", "--runs", "2", "--impl", "threaditerators", "--json"], Catalogue.All);

        Assert.Equal(0, exitCode);
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(3, lines.Length);
        var runs = lines.Select(line => JsonDocument.Parse(line).RootElement).ToList();
        Assert.Equal(["1", "2", "median"], runs.Select(r => r.GetProperty("run").GetString()));
        foreach (var run in runs)
        {
            Assert.All(Fields, field => Assert.True(run.TryGetProperty(field, out _), $"missing {field}"));
            Assert.True(run.GetProperty("ok").GetBoolean());
            Assert.Equal(2, run.GetProperty("workers").GetInt32());
            Assert.Equal(ThreadIterators.Benchmarks.Workloads.ThreadRing.Expected(5030), run.GetProperty("result").GetInt64());
        }
    }

    [Fact]
    public void WrongResult_IsReportedAndExitsOne()
    {
        var broken = new WorkloadSpec(
            "broken",
            Defaults: new(N: 0, M: 10, Hops: 0),
            ComparisonSizes: new(N: 0, M: 10, Hops: 0),
            o => $"m={o.M}",
            o => o.M,
            o => o.M,
            [new Implementation(Implementation.Threads, RunsOn.OwnThreads, (_, o) => o.M - 1)]);

        var (exitCode, output) = Execute(["run", "broken", "--runs", "1"], [broken]);

        Assert.Equal(1, exitCode);
        Assert.Contains("WRONG (expected 10)", output, StringComparison.Ordinal);
    }

    /// <summary>Implementations on the thread pool (async/await and the actor libraries) run in a process of their own whose pool has as many threads as a scheduler has workers.</summary>
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void PoolImplementations_RunOnAPoolLimitedToTheWorkerCount(int workers)
    {
        var (exitCode, output) = Execute(["run", "pingpong", "--m", "1001", "--workers", workers.ToString(System.Globalization.CultureInfo.InvariantCulture), "--runs", "1", "--warmup", "0", "--impl", "tasks,akka,protoactor", "--json"], Catalogue.All);

        Assert.Equal(0, exitCode);
        var runs = output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line => JsonDocument.Parse(line).RootElement).ToList();
        Assert.Equal(6, runs.Count);
        Assert.Equal(["tasks", "akka", "protoactor"], runs.Where(r => r.GetProperty("run").GetString() == "median").Select(r => r.GetProperty("implementation").GetString()));
        Assert.All(runs, run => Assert.Equal(workers, run.GetProperty("workers").GetInt32()));
        Assert.All(runs, run => Assert.Equal(workers, run.GetProperty("pool_threads_max").GetInt32()));
        Assert.All(runs, run => Assert.True(run.GetProperty("ok").GetBoolean()));
    }

    [Fact]
    public void UnknownWorkload_ExitsTwo()
    {
        Assert.Equal(2, Execute(["run", "nonsense"], Catalogue.All).ExitCode);
    }

    [Fact]
    public void CacheAffinity_EveryPolicyAndThePool_EachPrintTheirRunsAndMedian()
    {
        var (exitCode, output) = Execute(["run", "cacheaffinity", "--actors", "8", "--state", "4KB", "--accesses", "5", "--m", "2000", "--workers", "2", "--policy", "all", "--runs", "1", "--warmup", "0", "--impl", "threaditerators,threadpool", "--json"], Catalogue.All);

        Assert.Equal(0, exitCode);
        var runs = output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line => JsonDocument.Parse(line).RootElement).ToList();
        Assert.Equal(10, runs.Count);
        Assert.All(runs, run => Assert.True(run.GetProperty("ok").GetBoolean()));
        Assert.All(runs, run => Assert.Equal("actors=8 state=4000 accesses=5 m=2000", run.GetProperty("parameters").GetString()));
        var who = runs.Where(r => r.GetProperty("run").GetString() == "median").Select(r => $"{r.GetProperty("implementation").GetString()}/{r.GetProperty("policy").GetString()}");
        Assert.Equal(["threaditerators/workstealing", "threaditerators/softaffinity", "threaditerators/dedicated", "threaditerators/shared", "threadpool/"], who);
    }

    [Theory]
    [InlineData("--policy", "fastest")]
    [InlineData("--policy", "")]
    [InlineData("--state", "4")]
    [InlineData("--state", "12XB")]
    [InlineData("--state", "0.5")]
    [InlineData("--warmup", "-1")]
    [InlineData("--actors", "0")]
    public void BadOption_ExitsTwo(string option, string value)
    {
        Assert.Equal(2, Execute(["run", "cacheaffinity", option, value], Catalogue.All).ExitCode);
    }

    [Theory]
    [InlineData("64", 64)]
    [InlineData("64B", 64)]
    [InlineData("4KB", 4_000)]
    [InlineData("32kb", 32_000)]
    [InlineData("3.2MB", 3_200_000)]
    public void State_TakesTheSeedsSizes(string text, long bytes)
    {
        Assert.True(ThreadIterators.Benchmarks.QuickRunner.CommandLine.TryParse(["run", "cacheaffinity", "--state", text], Catalogue.All, out var command, out var error), error);
        Assert.Equal(bytes, command.Sizes(Catalogue.All.Single(w => w.Name == "cacheaffinity").Defaults).State);
    }

    private static (int ExitCode, string Output) Execute(string[] args, IReadOnlyList<WorkloadSpec> catalogue)
    {
        var writer = new StringWriter();
        var original = Console.Out;
        var originalError = Console.Error;
        Console.SetOut(writer);
        Console.SetError(writer);
        try
        {
            return (Runner.Execute(args, catalogue), writer.ToString());
        }
        finally
        {
            Console.SetOut(original);
            Console.SetError(originalError);
        }
    }
}
