using System;
using System.IO;
using System.Linq;
using System.Text.Json;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Tests;

/// <summary>
/// The <c>latency</c> command at toy sizes: every configuration runs in its own process and prints every field, and
/// the counts agree. No timing is asserted: this machine's latencies are what the command is for.
/// </summary>
[Collection(MeasurementsRunAlone.Name)]
public sealed class LatencyCommandTests
{
    private static readonly string[] Fields =
    [
        "workload", "parameters", "implementation", "workers", "policy", "pool_limited", "work_ns_per_message", "run",
        "heartbeat_late_p50_ms", "heartbeat_late_p99_ms", "heartbeat_late_max_ms", "heartbeat_samples",
        "completion_p50_ms", "completion_p99_ms", "completion_max_ms", "completion_samples",
        "completions_sent", "completions_received", "messages", "window_seconds", "messages_per_second",
        "cpu_cores_busy", "peak_working_set_bytes", "pool_threads_max", "ok",
    ];

    [Fact]
    public void Tiny_BothImplementationsOnOneAndTwoWorkers_PrintEveryField_AndReceiveEveryCompletion()
    {
        var (exitCode, output) = Execute(
            ["latency", "--workers", "1,2", "--policy", "workstealing,shared", "--impl", "threaditerators,tasks", "--runs", "1",
             "--seconds", "0.3", "--warmup", "100", "--clients", "50"]);

        Assert.True(exitCode == 0, output);
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var runs = lines.Where(l => l.StartsWith('{')).Select(l => JsonDocument.Parse(l).RootElement).ToList();
        Assert.Equal(12, runs.Count);
        foreach (var run in runs)
        {
            Assert.All(Fields, field => Assert.True(run.TryGetProperty(field, out _), $"missing {field}"));
            Assert.Equal("latency", run.GetProperty("workload").GetString());
            Assert.StartsWith("clients=50 fanout=50 work=50 ", run.GetProperty("parameters").GetString(), StringComparison.Ordinal);
            Assert.True(run.GetProperty("work_ns_per_message").GetDouble() > 0);
            Assert.True(run.GetProperty("ok").GetBoolean());
            Assert.True(run.GetProperty("pool_limited").GetBoolean());
            var sent = run.GetProperty("completions_sent").GetInt64();
            Assert.True(sent > 0);
            Assert.Equal(sent, run.GetProperty("completions_received").GetInt64());
            Assert.InRange(run.GetProperty("completion_samples").GetInt64(), 1, sent);
            Assert.True(run.GetProperty("heartbeat_samples").GetInt64() > 0);
            Assert.True(run.GetProperty("messages").GetInt64() > 0);
            Assert.True(run.GetProperty("messages_per_second").GetDouble() > 0);
            Assert.True(run.GetProperty("peak_working_set_bytes").GetInt64() > 0);
            Assert.True(run.GetProperty("heartbeat_late_max_ms").GetDouble() >= run.GetProperty("heartbeat_late_p99_ms").GetDouble());
            Assert.True(run.GetProperty("completion_max_ms").GetDouble() >= run.GetProperty("completion_p50_ms").GetDouble());
        }

        var who = runs.Select(r => $"{r.GetProperty("implementation").GetString()}/{r.GetProperty("workers").GetInt32()}/{r.GetProperty("policy").GetString()}/{r.GetProperty("run").GetString()}");
        Assert.Equal(
            [
                "threaditerators/1/workstealing/1", "threaditerators/1/workstealing/median", "threaditerators/1/shared/1", "threaditerators/1/shared/median",
                "threaditerators/2/workstealing/1", "threaditerators/2/workstealing/median", "threaditerators/2/shared/1", "threaditerators/2/shared/median",
                "tasks/1//1", "tasks/1//median", "tasks/2//1", "tasks/2//median",
            ],
            who);
        Assert.All(runs.Where(r => r.GetProperty("implementation").GetString() == "tasks"), r => Assert.InRange(r.GetProperty("pool_threads_max").GetInt32(), 1, r.GetProperty("workers").GetInt32()));
        Assert.Equal(6, lines.Count(l => l.StartsWith("| threaditerators |", StringComparison.Ordinal) || l.StartsWith("| tasks |", StringComparison.Ordinal)));
    }

    [Theory]
    [InlineData("--workers", "0")]
    [InlineData("--workers", "1,x")]
    [InlineData("--impl", "threads")]
    [InlineData("--policy", "fastest")]
    [InlineData("--seconds", "0")]
    [InlineData("--fanout", "2000")]
    [InlineData("--clients", "-5")]
    [InlineData("--work", "-1")]
    public void BadOption_ExitsTwo(string option, string value)
    {
        Assert.Equal(2, Execute(["latency", option, value]).ExitCode);
    }

    private static (int ExitCode, string Output) Execute(string[] args)
    {
        var writer = new StringWriter();
        var original = Console.Out;
        var originalError = Console.Error;
        Console.SetOut(writer);
        Console.SetError(writer);
        try
        {
            return (LatencyCommand.Execute(args), writer.ToString());
        }
        finally
        {
            Console.SetOut(original);
            Console.SetError(originalError);
        }
    }
}
