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
        "workload", "parameters", "implementation", "workers", "run", "elapsed_ms", "messages", "messages_per_second",
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
            [new Implementation(Implementation.Tasks, false, (_, o) => o.M - 1)]);

        var (exitCode, output) = Execute(["run", "broken", "--runs", "1"], [broken]);

        Assert.Equal(1, exitCode);
        Assert.Contains("WRONG (expected 10)", output, StringComparison.Ordinal);
    }

    [Fact]
    public void UnknownWorkload_ExitsTwo()
    {
        Assert.Equal(2, Execute(["run", "nonsense"], Catalogue.All).ExitCode);
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
