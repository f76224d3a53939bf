using System;
using System.IO;
using System.Linq;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Tests;

/// <summary>The report's verdicts follow the medians, and the whole comparison runs end to end at toy sizes.</summary>
public sealed class ComparisonReportTests
{
    [Fact]
    public void Verdicts_FollowTheMedianRatios_AndAFailedCaseIsAMiss()
    {
        var fast = Ring(1024, workers: 1, ours: [10, 11, 40], erlang: [50, 60, 55]);       // medians 11 and 55: 5.0x.
        var slow = Ring(2048, workers: 2, ours: [30, 30, 30], erlang: [90, 100, 110]);      // 3.3x: faster, but under 4x.
        var skynet = Case("skynet", new RunOptions(1000, 0, 0), 2, ours: [10], erlang: [200]);
        var failed = Case("pingpong", new RunOptions(0, 100, 0), 1, ours: [10], erlang: [100]);
        failed.Failures.Add("erlang exited with code 1");

        var report = ReportWriter.Write([fast, slow, skynet, failed], "OTP test", runs: 3, quick: false, "chart.png", scalingChart: null, TimeSpan.FromMinutes(1));

        Assert.Contains("| Ring: faster than Erlang at every N, on the same OS thread count | lowest 3.3x (N = 2,048, 2 OS threads), highest 5.0x (N = 1,024, 1 OS thread) | **met** |", report, StringComparison.Ordinal);
        Assert.Contains("| Ring: at least 4x faster at N >= 1024 | lowest 3.3x (N = 2,048, 2 OS threads), highest 5.0x (N = 1,024, 1 OS thread) | **missed** (N = 2,048, 2 OS threads) |", report, StringComparison.Ordinal);
        Assert.Contains("| Skynet: at least 10x faster | 20.0x (2 OS threads) | **met** |", report, StringComparison.Ordinal);
        Assert.Contains("| PingPong: at least 6x faster | failed (1 OS thread) | **missed** (1 OS thread failed) |", report, StringComparison.Ordinal);
        Assert.Contains("| 1,024 | 55.0 | 11.0 | 5.0x |", report, StringComparison.Ordinal);
        Assert.Contains("## Failed runs", report, StringComparison.Ordinal);
    }

    [Fact]
    public void ScalingTable_GivesEverySpeedup_AndTheVerdictsOfThePeerTargets()
    {
        var sizes = new RunOptions(0, 0, 1000);
        var one = Case("threadring", sizes, 1, ours: [10], erlang: [100], peers: true);
        var two = Case("threadring", sizes, 2, ours: [20], erlang: [50], peers: true);
        Peer(one, "tasks", 60);
        Peer(two, "tasks", 30);
        Peer(one, "akka", 80);
        Peer(two, "akka", 40);         // 2.0x ours on 2 OS threads: under the 5x asked for ThreadRing.
        Peer(one, "protoactor", 100);
        two.Fail("protoactor", " exited with code 1");

        var report = ReportWriter.Write([one, two], "OTP test", runs: 1, quick: false, "chart.png", "scaling.png", TimeSpan.FromMinutes(1));

        Assert.Contains("| threadring | hops=1000 | 0.50x (10.0 → 20.0) | 2.00x (100.0 → 50.0) | 2.00x (60.0 → 30.0) | 2.00x (80.0 → 40.0) | failed |", report, StringComparison.Ordinal);
        Assert.Contains("| threadring | 1 | 10.0x | 6.0x | 8.0x | 10.0x |", report, StringComparison.Ordinal);
        Assert.Contains("| threadring | 2 | 2.5x | 1.5x | 2.0x | failed |", report, StringComparison.Ordinal);
        Assert.Contains("no workload slower on 2 OS threads than on 1 (speed-up at least 0.95, 5% for noise) | lowest 0.50x (threadring) | **missed** (threadring 0.50x) |", report, StringComparison.Ordinal);
        Assert.Contains("| Faster than Akka.NET on every workload, on 1 and 2 OS threads; at least 5x on ThreadRing, PingPong and Skynet | lowest 2.0x (threadring, 2 OS threads) | **missed** (threadring 2 OS threads 2.0x) |", report, StringComparison.Ordinal);
        Assert.Contains("**missed** (threadring 2 OS threads failed)", report, StringComparison.Ordinal);
        Assert.Contains("![Speed-up from 1 to 2 OS threads", report, StringComparison.Ordinal);
        Assert.Contains("protoactor exited with code 1", report, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("threaditerators", "ring", "n=64 m=20", 1, true, 2, 0, "")]
    [InlineData("threaditerators", "ring", "n=64 m=20", 1, true, 1, 1, "after 1 of 2 run(s)")]
    [InlineData("erlang", "ring", "n=64 m=20", 1, true, 2, 2, "a run of something else")]
    [InlineData("threaditerators", "threadring", "n=64 m=20", 1, true, 2, 2, "a run of something else")]
    [InlineData("threaditerators", "ring", "n=64 m=2", 1, true, 2, 2, "a run of something else")]
    [InlineData("threaditerators", "ring", "n=64 m=20", 2, true, 2, 2, "a run of something else")]
    [InlineData("threaditerators", "ring", "n=64 m=20", 1, false, 2, 2, "wrong result")]
    public void Accept_KeepsOnlyThisSidesVerifiedRunsOfThisCase(string implementation, string workload, string parameters, int workers, bool ok, int printed, int failures, string why)
    {
        var result = new CaseResult(new ComparisonCase("ring", new RunOptions(64, 20, 0), 1));
        var line = $$"""{"workload":"{{workload}}","parameters":"{{parameters}}","implementation":"{{implementation}}","workers":{{workers}},"run":"1","elapsed_ms":2.5,"ns_per_message":1.9,"ok":{{(ok ? "true" : "false")}}}""";
        var median = line.Replace("\"run\":\"1\"", "\"run\":\"median\"", StringComparison.Ordinal);
        var outcome = new ChildProcess.Outcome(0, [.. Enumerable.Repeat(line, printed), median], string.Empty);

        var kept = ErlangCommand.Accept(result, result.Ours, "threaditerators", runs: 2, outcome);

        Assert.Equal(failures, result.Failures.Count);
        Assert.Equal(failures == 0 ? 2 : 0, kept.Count);
        Assert.Equal(kept.Count, result.Ours.Count);
        Assert.All(result.Failures, f => Assert.Contains(why, f, StringComparison.Ordinal));
    }

    [Fact]
    public void Accept_RejectsAFailedProcess_AndUnreadableLines()
    {
        var result = new CaseResult(new ComparisonCase("ring", new RunOptions(64, 20, 0), 1));

        ErlangCommand.Accept(result, result.Erlang, "erlang", runs: 1, new ChildProcess.Outcome(3, [], "bench crashed"));
        ErlangCommand.Accept(result, result.Erlang, "erlang", runs: 1, new ChildProcess.Outcome(0, ["{\"workload\":\"ring\"}"], string.Empty));

        Assert.Empty(result.Erlang);
        Assert.Equal(2, result.Failures.Count);
        Assert.Contains("bench crashed", result.Failures[0], StringComparison.Ordinal);
        Assert.Contains("unreadable", result.Failures[1], StringComparison.Ordinal);
        Assert.False(result.Complete);
    }

    [Fact]
    public void Comparison_RunsBothSides_AndWritesTheReportAndChart()
    {
        var output = Directory.CreateTempSubdirectory("erlang-comparison-test-").FullName;
        ComparisonCase[] plan =
        [
            new("ring", new RunOptions(64, 20, 0), 1),
            new("ring", new RunOptions(128, 20, 0), 2),
            new("threadring", new RunOptions(0, 0, 5_030), 1, WithPeers: true),
            new("threadring", new RunOptions(0, 0, 5_030), 2, WithPeers: true),
            new(ComparisonCase.Footprint, new RunOptions(1_000, 0, 0), 2),
        ];

        var exitCode = ErlangCommand.Execute(["compare", "--runs", "1", "--out", output], plan);

        Assert.Equal(0, exitCode);
        var report = File.ReadAllText(Path.Combine(output, "erlang-comparison.md"));
        Assert.Contains("| 64 | ", report, StringComparison.Ordinal);
        Assert.Contains("| threadring | hops=5030 | 2 |", report, StringComparison.Ordinal);
        Assert.Contains("| 1,000 | 2 |", report, StringComparison.Ordinal);
        Assert.DoesNotContain("failed", report, StringComparison.Ordinal);
        Assert.Matches(@"\| threadring \| hops=5030 \|( [0-9.]+x \([0-9.]+ → [0-9.]+\) \|){5}", report);
        Assert.True(new FileInfo(Path.Combine(output, RingChart.FileName)).Length > 1_000, "the ring chart is missing or empty");
        Assert.True(new FileInfo(Path.Combine(output, ScalingChart.FileName)).Length > 1_000, "the scaling chart is missing or empty");
    }

    private static CaseResult Ring(long n, int workers, double[] ours, double[] erlang) => Case("ring", new RunOptions(n, 1000, 0), workers, ours, erlang);

    private static void Peer(CaseResult result, string peer, double ms) =>
        result.RunsOf(peer).Add(new RunRecord(result.Case.Workload, peer, result.Case.Workers, "p", ms, ms, Ok: true));

    private static CaseResult Case(string workload, RunOptions sizes, int workers, double[] ours, double[] erlang, bool peers = false)
    {
        var result = new CaseResult(new ComparisonCase(workload, sizes, workers, peers));
        foreach (var ms in ours)
        {
            result.Ours.Add(new RunRecord(workload, "threaditerators", workers, "p", ms, ms, Ok: true));
        }

        foreach (var ms in erlang)
        {
            result.Erlang.Add(new RunRecord(workload, "erlang", workers, "p", ms, ms, Ok: true));
        }

        return result;
    }
}
