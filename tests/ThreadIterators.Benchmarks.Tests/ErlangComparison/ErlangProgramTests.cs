using System;
using System.Linq;
using System.Text.Json;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Tests;

/// <summary>
/// Each Erlang program computes the answer our workload's <c>Expected</c> gives for the same sizes, names its sizes
/// the same way, counts the same messages, and prints every field the quick runner prints.
/// </summary>
public sealed class ErlangProgramTests(ErlangFixture erlang) : IClassFixture<ErlangFixture>
{
    private static readonly string[] Fields =
    [
        "workload", "parameters", "implementation", "workers", "run", "elapsed_ms", "messages", "messages_per_second",
        "ns_per_message", "allocated_bytes", "gen0_collections", "gen1_collections", "gen2_collections",
        "peak_working_set_bytes", "result", "expected", "ok",
    ];

    public static TheoryData<string, int> Workloads()
    {
        var data = new TheoryData<string, int>();
        // The cache-affinity workload compares this runtime's scheduling policies with each other; it has no Erlang program.
        foreach (var spec in Catalogue.All.Where(s => s.Name != "cacheaffinity"))
        {
            data.Add(spec.Name, 1);
            data.Add(spec.Name, 2);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Workloads))]
    public void Program_ComputesOurExpectedAnswer_WithTheQuickRunnersFields(string workload, int schedulers)
    {
        var spec = Catalogue.All.Single(w => w.Name == workload);
        var sizes = workload switch
        {
            "ring" => new RunOptions(N: 50, M: 20, Hops: 0),
            "threadring" => new RunOptions(N: 0, M: 0, Hops: 5_030),
            "parallelthreadring" => new RunOptions(N: 0, M: 0, Hops: 503 * 10 + 7),
            "skynet" => new RunOptions(N: 1_000, M: 0, Hops: 0),
            _ => new RunOptions(N: 0, M: 10_001, Hops: 0),
        };

        var outcome = erlang.Runtime.Run(new ComparisonCase(workload, sizes, schedulers), runs: 2, TimeSpan.FromMinutes(2));

        Assert.True(outcome.ExitCode == 0, $"exit code {outcome.ExitCode}: {outcome.Error} {string.Join('\n', outcome.Lines)}");
        var lines = outcome.Lines.Select(line => JsonDocument.Parse(line).RootElement).ToList();
        Assert.Equal(["1", "2", "median"], lines.Select(l => l.GetProperty("run").GetString()));
        foreach (var line in lines)
        {
            Assert.All(Fields, field => Assert.True(line.TryGetProperty(field, out _), $"missing {field}"));
            Assert.Equal("erlang", line.GetProperty("implementation").GetString());
            Assert.Equal(schedulers, line.GetProperty("workers").GetInt32());
            Assert.Equal(spec.Describe(sizes), line.GetProperty("parameters").GetString());
            Assert.Equal(spec.Messages(sizes), line.GetProperty("messages").GetInt64());
            Assert.Equal(spec.Expected(sizes), line.GetProperty("result").GetInt64());
            Assert.True(line.GetProperty("ok").GetBoolean());
            Assert.True(line.GetProperty("elapsed_ms").GetDouble() > 0);
        }
    }

    [Fact]
    public void Footprint_ParksEveryProcess_AndWakesEach()
    {
        var outcome = erlang.Runtime.Run(new ComparisonCase(ComparisonCase.Footprint, new RunOptions(N: 2_000, M: 0, Hops: 0), 2), runs: 1, TimeSpan.FromMinutes(2));

        Assert.True(outcome.ExitCode == 0, $"exit code {outcome.ExitCode}: {outcome.Error}");
        var record = RunRecord.Parse(outcome.Lines.Single());
        Assert.True(record.Ok);
        Assert.Equal("threads=2000", record.Parameters);
        Assert.InRange(record.Value, 100, 100_000);
        using var json = JsonDocument.Parse(outcome.Lines.Single());
        Assert.Equal(2_000, json.RootElement.GetProperty("received").GetInt64());
    }
}
