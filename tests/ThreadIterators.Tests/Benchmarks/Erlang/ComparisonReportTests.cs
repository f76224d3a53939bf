using System;
using System.IO;
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

        var report = ReportWriter.Write([fast, slow, skynet, failed], "OTP test", runs: 3, quick: false, "chart.png", TimeSpan.FromMinutes(1));

        Assert.Contains("| Ring: faster than Erlang at every N, on the same OS thread count | lowest 3.3x (N = 2,048, 2 OS threads), highest 5.0x (N = 1,024, 1 OS thread) | **met** |", report, StringComparison.Ordinal);
        Assert.Contains("| Ring: at least 4x faster at N >= 1024 | lowest 3.3x (N = 2,048, 2 OS threads), highest 5.0x (N = 1,024, 1 OS thread) | **missed** (N = 2,048, 2 OS threads) |", report, StringComparison.Ordinal);
        Assert.Contains("| Skynet: at least 10x faster | 20.0x (2 OS threads) | **met** |", report, StringComparison.Ordinal);
        Assert.Contains("| PingPong: at least 6x faster | failed (1 OS thread) | **missed** (1 OS thread failed) |", report, StringComparison.Ordinal);
        Assert.Contains("| 1,024 | 55.0 | 11.0 | 5.0x |", report, StringComparison.Ordinal);
        Assert.Contains("## Failed runs", report, StringComparison.Ordinal);
    }

    [Fact]
    public void Comparison_RunsBothSides_AndWritesTheReportAndChart()
    {
        var output = Directory.CreateTempSubdirectory("erlang-comparison-test-").FullName;
        ComparisonCase[] plan =
        [
            new("ring", new RunOptions(64, 20, 0), 1),
            new("ring", new RunOptions(128, 20, 0), 2),
            new("threadring", new RunOptions(0, 0, 5_030), 2),
            new(ComparisonCase.Footprint, new RunOptions(1_000, 0, 0), 2),
        ];

        var exitCode = ErlangCommand.Execute(["compare", "--runs", "1", "--out", output], plan);

        Assert.Equal(0, exitCode);
        var report = File.ReadAllText(Path.Combine(output, "erlang-comparison.md"));
        Assert.Contains("| 64 | ", report, StringComparison.Ordinal);
        Assert.Contains("| threadring | hops=5030 | 2 |", report, StringComparison.Ordinal);
        Assert.Contains("| 1,000 | 2 |", report, StringComparison.Ordinal);
        Assert.DoesNotContain("failed", report, StringComparison.Ordinal);
        Assert.True(new FileInfo(Path.Combine(output, RingChart.FileName)).Length > 1_000, "the chart is missing or empty");
    }

    private static CaseResult Ring(long n, int workers, double[] ours, double[] erlang) => Case("ring", new RunOptions(n, 1000, 0), workers, ours, erlang);

    private static CaseResult Case(string workload, RunOptions sizes, int workers, double[] ours, double[] erlang)
    {
        var result = new CaseResult(new ComparisonCase(workload, sizes, workers));
        foreach (var ms in ours)
        {
            result.Ours.Add(new RunRecord("threaditerators", workers, "p", ms, ms, Ok: true));
        }

        foreach (var ms in erlang)
        {
            result.Erlang.Add(new RunRecord("erlang", workers, "p", ms, ms, Ok: true));
        }

        return result;
    }
}
