extern alias SideBySide;

using System;
using SideCase = SideBySide::ThreadIterators.SideBySide.SideCase;

namespace ThreadIterators.Benchmarks.Tests.SideBySide;

/// <summary>
/// The side-by-side tool's workloads: each runs on this tree's library and checks its own result, which a timed run
/// that computed something else would throw on.
/// </summary>
public sealed class SideCaseTests
{
    public static TheoryData<string> Workloads() => new(SideCase.Names);

    [Theory]
    [MemberData(nameof(Workloads))]
    public void Prepare_EachWorkload_RunsAndTimesAPositiveCostPerOperation(string workload)
    {
        var (run, scheduler) = SideCase.Prepare(workload, workers: 1);
        using var _ = scheduler;
        var nanoseconds = run();
        Assert.True(nanoseconds > 0 && double.IsFinite(nanoseconds), $"{workload} timed {nanoseconds} ns per operation");
    }

    [Fact]
    public void Prepare_AnUnknownWorkload_IsRefusedWithTheNamesItKnows()
    {
        var error = Assert.Throws<ArgumentException>(() => SideCase.Prepare("pingpong", workers: 1));
        Assert.Contains("'pingpong'", error.Message, StringComparison.Ordinal);
        Assert.Contains("receive, choice, timeout", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Library_NamesTheVersionThisCopyRuns()
    {
        Assert.StartsWith(typeof(Scheduler).Assembly.GetName().Version!.ToString(), SideCase.Library, StringComparison.Ordinal);
    }
}
