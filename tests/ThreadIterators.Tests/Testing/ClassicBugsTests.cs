using System.Linq;
using ThreadIterators;
using ThreadIterators.Samples.Testing;
using ThreadIterators.Testing;

namespace ThreadIterators.Tests;

/// <summary>
/// The five classic bugs of samples/Testing: each buggy program is caught by exploration within 1,000 runs under
/// each strategy and replayed exactly from its seed; each fix passes every run, and runs unchanged on a real scheduler.
/// </summary>
public sealed class ClassicBugsTests
{
    public static TheoryData<int, ExplorationStrategy> Cases
    {
        get
        {
            var cases = new TheoryData<int, ExplorationStrategy>();
            for (var i = 0; i < ClassicBugs.All.Count; i++)
            {
                cases.Add(i, ExplorationStrategy.Random);
                cases.Add(i, ExplorationStrategy.Pct);
            }

            return cases;
        }
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Buggy_IsFoundWithin1000Runs_AndItsSeedReplaysTheSameTrace(int bug, ExplorationStrategy strategy)
    {
        var program = ClassicBugs.All[bug];
        var options = new ExplorationOptions { Strategy = strategy, Iterations = 1_000 };
        var found = Exploration.Explore(program.Buggy, options);
        Assert.True(found.Failed, $"{program.Name}: {found}");

        var replayed = Exploration.Replay(program.Buggy, found.Seed, options);
        Assert.Equal(found.Failure, replayed.Failure);
        Assert.Equal(found.TraceHash, replayed.TraceHash);
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Fixed_PassesEveryRun(int bug, ExplorationStrategy strategy)
    {
        var program = ClassicBugs.All[bug];
        var result = Exploration.Explore(program.Fixed, new ExplorationOptions { Strategy = strategy, Iterations = 500 });
        Assert.False(result.Failed, $"{program.Name}: {result}");
    }

    [Fact]
    public void Fixed_RunUnchangedOnARealSchedulerOfTwoWorkers()
    {
        foreach (var program in ClassicBugs.All)
        {
            using var scheduler = new Scheduler(2);
            scheduler.Spawn(program.Fixed(scheduler), "test").WaitOrThrow(Waiting.Timeout);
        }
    }

    [Fact]
    public void Philosophers_TheDeadlockReportNamesEveryPhilosopherInTheCycle()
    {
        var found = Exploration.Explore(Philosophers.Buggy, new ExplorationOptions { Iterations = 1_000 });
        Assert.Equal(ExplorationFailure.Deadlock, found.Failure);
        var cycle = found.Description!.Split('\n').Single(line => line.StartsWith("Deadlock, a cycle of waits:", System.StringComparison.Ordinal));
        for (var i = 0; i < 3; i++)
        {
            Assert.Contains($"'philosopher {i}'", cycle, System.StringComparison.Ordinal);
        }
    }
}
