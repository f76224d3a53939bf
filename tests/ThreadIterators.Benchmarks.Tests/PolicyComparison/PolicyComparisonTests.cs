using System;
using System.IO;
using System.Linq;
using ThreadIterators.Benchmarks.PolicyComparison;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Tests;

/// <summary>The policy comparison: its verdicts follow the medians, and the whole command runs end to end.</summary>
[Collection(MeasurementsRunAlone.Name)]
public sealed class PolicyComparisonTests
{
    private static readonly RunOptions Few = new(N: 0, M: 1_000, Hops: 0, Actors: 4, State: 4_000, Accesses: 20);

    private static readonly RunOptions Many = new(N: 0, M: 1_000, Hops: 0, Actors: 240, State: 3_200_000, Accesses: 100);

    [Fact]
    public void Report_MarksTheBest_AndJudgesEachTargetFromTheMedians()
    {
        var plan = PolicyPlan.Quick with { Grid = [Few, Many], Others = [("ring", new RunOptions(N: 50, M: 20, Hops: 0))], OtherWorkers = [2] };
        var results = new[]
        {
            // Few actors: the default is 3% behind the best (within 5%), and faster than work stealing.
            Result(Few, 2, "workstealing", 110), Result(Few, 2, "softaffinity", 103), Result(Few, 2, "dedicated", 100), Result(Few, 2, "shared", 120), Result(Few, 0, "threadpool", 150),

            // Many actors: the default is 10% behind, and only 1.5x faster than the pool.
            Result(Many, 2, "workstealing", 100), Result(Many, 2, "softaffinity", 110), Result(Many, 2, "dedicated", 130), Result(Many, 2, "shared", 105), Result(Many, 0, "threadpool", 165),
            Result(plan.Others[0].Sizes, 2, "workstealing", 30, "ring"), Result(plan.Others[0].Sizes, 2, "softaffinity", 20, "ring"),
            Result(plan.Others[0].Sizes, 2, "dedicated", 90, "ring"), Result(plan.Others[0].Sizes, 2, "shared", 40, "ring"),
        };

        var report = PolicyReport.Write(plan, results, "policies", TimeSpan.FromMinutes(1), SchedulingPolicy.SoftAffinity);

        Assert.Contains("| 4 | 4 KB | 20 | 110.0 | 103.0 | **100.0** | 120.0 | 150.0 | +3% | 1.5x |", report, StringComparison.Ordinal);
        Assert.Contains("| 240 | 3.2 MB | 100 | **100.0** | 110.0 | 130.0 | 105.0 | 165.0 | +10% | 1.5x |", report, StringComparison.Ordinal);
        Assert.Contains("within 5% of the best policy in every cell: **missed**; met in 1 of 2 cells.", report, StringComparison.Ordinal);
        Assert.Contains("missed: 240 actors, 3.2 MB, 100 accesses: +10% (best work stealing)", report, StringComparison.Ordinal);
        Assert.Contains("thread-pool baseline in every cell with 24 or more actors: **missed**; met in 0 of 1 cells.", report, StringComparison.Ordinal);
        Assert.Contains("at least as fast as work stealing: **met**; met in 1 of 1 cells.", report, StringComparison.Ordinal);
        Assert.Contains("| ring | n=50 m=20 | 2 | 30.0 | **20.0** | 90.0 | 40.0 | best |", report, StringComparison.Ordinal);
    }

    [Fact]
    public void Report_AFailedConfiguration_ShowsFailedAndNeverWins()
    {
        var plan = PolicyPlan.Quick with { Grid = [Few], Others = [] };
        var broken = Result(Few, 2, "dedicated", 1);
        broken.Ok = false;
        var results = new[] { Result(Few, 2, "workstealing", 110), Result(Few, 2, "softaffinity", 100), broken, Result(Few, 2, "shared", 120), Result(Few, 0, "threadpool", 150) };

        var report = PolicyReport.Write(plan, results, "policies", TimeSpan.FromMinutes(1), SchedulingPolicy.SoftAffinity, ["cacheaffinity pass 1: killed"]);

        Assert.Contains("| 4 | 4 KB | 20 | 110.0 | **100.0** | failed | 120.0 | 150.0 | best | 1.5x |", report, StringComparison.Ordinal);
        Assert.Contains("### Processes that failed and were run again", report, StringComparison.Ordinal);
        Assert.Contains("- cacheaffinity pass 1: killed", report, StringComparison.Ordinal);
    }

    [Fact]
    public void Command_Quick_MeasuresEveryPolicyAndThePool_AndWritesTheReport()
    {
        var output = Path.Combine(Path.GetTempPath(), $"policies-{Guid.NewGuid():N}.md");
        var error = Console.Error;
        Console.SetError(TextWriter.Null);
        try
        {
            Assert.Equal(0, PolicyCommand.Execute(["policies", "--quick", "--out", output]));
            var report = File.ReadAllText(output);
            var gridRows = report.Split('\n').Where(line => line.StartsWith("| 4 |", StringComparison.Ordinal) || line.StartsWith("| 24 |", StringComparison.Ordinal)).ToList();
            Assert.Equal(PolicyPlan.Quick.Grid.Count, gridRows.Count);
            Assert.All(gridRows, row => Assert.DoesNotContain("failed", row, StringComparison.Ordinal));
            Assert.Contains("| ring | n=50 m=20 | 2 |", report, StringComparison.Ordinal);
            Assert.Contains("| pingpong | m=2000 | 2 |", report, StringComparison.Ordinal);
        }
        finally
        {
            Console.SetError(error);
            File.Delete(output);
        }
    }

    private static PolicyResult Result(RunOptions sizes, int workers, string runner, double value, string workload = "cacheaffinity")
    {
        var result = new PolicyResult(workload, sizes, workers, runner);
        result.ElapsedMs.Add(value);
        result.NsPerMessage.Add(value);
        return result;
    }
}
