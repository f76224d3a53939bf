using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ThreadIterators.Benchmarks.Peers.Coyote;
using ThreadIterators.Benchmarks.TestingComparison;
using ThreadIterators.Samples.Testing;
using ThreadIterators.Testing;

namespace ThreadIterators.Tests;

/// <summary>
/// The Coyote side of the testing comparison is honest: each buggy program fails under Coyote for the bug it is named
/// after (not a mistake in how it was written), each fix passes, and the command measures and judges both sides.
/// </summary>
[Collection(MeasurementsRunAlone.Name)]
public sealed class CoyoteProgramTests
{
    /// <summary>What each bug's failure says on Coyote, in the order of <see cref="CoyoteBugs.All"/>.</summary>
    private static readonly string[] Symptoms =
    [
        "lost update: two increments left the counter at 1",
        "order violation: 'read' arrived before 'configure'",
        "Deadlock detected.",
        "one payment applied 2 times",
        "of 3 jobs processed: a restart lost the rest",
    ];

    public static TheoryData<int, ExplorationStrategy> Programs()
    {
        var data = new TheoryData<int, ExplorationStrategy>();
        for (var i = 0; i < CoyoteBugs.All.Count; i++)
        {
            data.Add(i, ExplorationStrategy.Random);
            data.Add(i, ExplorationStrategy.Pct);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Programs))]
    public void Buggy_FailsOnCoyote_WithTheBugItIsNamedAfter(int program, ExplorationStrategy strategy)
    {
        var run = CoyotePeer.Explore(CoyoteBugs.All[program], isFixed: false, strategy, seed: 1, iterations: 1_000);

        Assert.True(run.Failed, $"{ClassicBugs.All[program].Name}: Coyote ran {run.Iterations} iterations without the bug");
        Assert.Contains(Symptoms[program], run.Bug, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Programs))]
    public void Fixed_PassesEveryCoyoteIteration(int program, ExplorationStrategy strategy)
    {
        var run = CoyotePeer.Explore(CoyoteBugs.All[program], isFixed: true, strategy, seed: 1, iterations: 100);

        Assert.False(run.Failed, $"{ClassicBugs.All[program].Name}: {run.Bug}");
        Assert.Equal(100, run.Iterations);
    }

    [Fact]
    public void Median_CountsASeedThatMissed_AsMoreThanAnyThatFound()
    {
        Assert.Equal(3, TestingRow.MedianIterations([1, 3, null]));
        Assert.Null(TestingRow.MedianIterations([1, null, null]));
        Assert.Equal(2.5, TestingRow.MedianIterations([2, 3]));
        Assert.Null(TestingRow.MedianIterations([2, null]));
    }

    [Fact]
    public void Report_JudgesIterationsPerStrategy_AndTheRateRatio()
    {
        var rows = new List<TestingRow>
        {
            new("bug", ExplorationStrategy.Random, [1, 1, 2], [2, 3, 4], [10_000], [500], []),
            new("bug", ExplorationStrategy.Pct, [3, 3, 3], [1, 2, 2], [10_000], [2_000], []),
        };
        var text = new TestingReport(new TestingSettings(3, 1_000, 1, 10, 10), rows, "machine").ToMarkdown();

        Assert.Contains("| bug | random | 1 (1-2) | 3 (2-4) | 10,000 | 500 | 20.0x |", text, StringComparison.Ordinal);
        Assert.Contains("| bug | PCT | 3 (3-3) | 2 (1-2) | 10,000 | 2,000 | 5.0x |", text, StringComparison.Ordinal);
        Assert.Contains("bug: found within 1,000 iterations **met**; at most Coyote's median iterations under each strategy **missed**; at least 10x Coyote's executions/s **missed** (random 20.0x, PCT 5.0x).", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Measure_RunsBothSides_AndEveryFixPasses()
    {
        var report = TestingCommand.Measure(new TestingSettings(Seeds: 2, Iterations: 1_000, Rounds: 1, OursRuns: 20, CoyoteRuns: 5), TextWriter.Null);

        Assert.Equal(10, report.Rows.Count);
        Assert.All(report.Rows, row =>
        {
            Assert.Empty(row.Failures);
            Assert.Equal(2, row.OursToBug.Count(i => i.HasValue));
            Assert.Equal(2, row.CoyoteToBug.Count);
            Assert.True(TestingRow.MedianRate(row.OursRates) > 0 && TestingRow.MedianRate(row.CoyoteRates) > 0, row.Program);
        });
    }
}
