using System;
using System.Collections.Generic;
using System.Linq;
using ThreadIterators;
using ThreadIterators.Samples.Testing;
using ThreadIterators.Testing;

namespace ThreadIterators.Tests;

/// <summary>
/// The controlled scheduler, on the programs of samples/Testing and small bodies of its own: seeded exploration finds bugs that need a particular interleaving, a seed replays its
/// run exactly, time is virtual, and deadlocks and livelocks end a run with a report.
/// </summary>
public sealed class ExplorationTests
{
    private sealed record Get(ReplyTo<int> Reply);

    [Theory]
    [InlineData(ExplorationStrategy.Random)]
    [InlineData(ExplorationStrategy.Pct)]
    public void Explore_LostUpdateThroughGetThenSet_FoundAndItsSeedReplaysTheSameTrace(ExplorationStrategy strategy)
    {
        var options = new ExplorationOptions { Strategy = strategy, Iterations = 1_000 };
        var found = Exploration.Explore(LostUpdate.Buggy, options);

        Assert.True(found.Failed, found.ToString());
        Assert.Equal(ExplorationFailure.Exception, found.Failure);
        Assert.Contains("lost update", found.Description, StringComparison.Ordinal);
        Assert.NotEmpty(found.Trace);
        Assert.Contains(found.Trace, step => step.Contains("'client 1'", StringComparison.Ordinal));

        var replayed = Exploration.Replay(LostUpdate.Buggy, found.Seed, options);
        Assert.Equal(found.Failure, replayed.Failure);
        Assert.Equal(found.TraceHash, replayed.TraceHash);
        Assert.Equal(found.Trace, replayed.Trace);
        Assert.Equal(found.Steps, replayed.Steps);
    }

    [Fact]
    public void Explore_SameOptionsTwice_SameRunsFailAtTheSameSeedWithTheSameTrace()
    {
        var options = new ExplorationOptions { Iterations = 1_000, FirstSeed = 7 };
        var first = Exploration.Explore(LostUpdate.Buggy, options);
        var second = Exploration.Explore(LostUpdate.Buggy, options);
        Assert.True(first.Failed);
        Assert.Equal(first.Seed, second.Seed);
        Assert.Equal(first.TraceHash, second.TraceHash);
    }

    [Fact]
    public void Explore_TheFixedCounter_PassesEveryRunUnderBothStrategies()
    {
        foreach (var strategy in new[] { ExplorationStrategy.Random, ExplorationStrategy.Pct })
        {
            var result = Exploration.Explore(LostUpdate.Fixed, new ExplorationOptions { Strategy = strategy, Iterations = 300 });
            Assert.False(result.Failed, result.ToString());
            Assert.Equal(300, result.Iterations);
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void FixedCounter_OnAnOrdinaryScheduler_RunsUnchanged(int workers)
    {
        using var scheduler = new Scheduler(workers);
        var test = scheduler.Spawn(LostUpdate.Fixed(scheduler), "test");
        test.WaitOrThrow(Waiting.Timeout);
    }

    [Fact]
    public void Explore_RingOfAsksThatCanDeadlock_FoundWithTheCycleInTheReport()
    {
        var found = Exploration.Explore(Philosophers.Buggy, new ExplorationOptions { Iterations = 1_000 });
        Assert.Equal(ExplorationFailure.Deadlock, found.Failure);
        Assert.Contains("Deadlock, a cycle of waits:", found.Description, StringComparison.Ordinal);
        for (var i = 0; i < 3; i++)
        {
            Assert.Contains($"'philosopher {i}'", found.Description, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Explore_ThirtySecondTimeout_TakesVirtualTimeOnly()
    {
        // A reply that never comes: the ask's 30 s deadline fires as soon as nothing else can run (samples/Testing).
        var result = Exploration.Explore(VirtualTimeout.Test, new ExplorationOptions { Iterations = 10 });
        Assert.False(result.Failed, result.ToString());
        Assert.True(result.VirtualTime >= TimeSpan.FromSeconds(30), $"virtual time {result.VirtualTime}");
    }

    [Fact]
    public void Explore_TimeoutRacingAPromptReply_TheTimeoutSideIsExploredToo()
    {
        // The server replies at its first step, but the ask's one-second timer may be fired before that step: the
        // strategy chooses when a timer fires relative to the threads, as real time might.
        var found = Exploration.Explore(RacingTimeout, new ExplorationOptions { Iterations = 1_000 });
        Assert.Equal(ExplorationFailure.Exception, found.Failure);
        Assert.Contains("timed out", found.Description, StringComparison.Ordinal);
        Assert.Contains(found.Trace, step => step.Contains("time moves to 00:00:01", StringComparison.Ordinal));

        static IEnumerable<Event> RacingTimeout(Scheduler scheduler)
        {
            var inbox = new Mailbox<Get>("prompt");
            var server = scheduler.Spawn(Prompt(inbox), "prompt server");
            var ask = inbox.Ask((ReplyTo<int> reply) => new Get(reply), TimeSpan.FromSeconds(1));
            yield return ask;
            if (ask.Exception is TimeoutException)
            {
                throw new InvalidOperationException("the ask timed out although the server replies at once");
            }

            yield return server.Exited;
        }

        static IEnumerable<Event> Prompt(Mailbox<Get> inbox)
        {
            var request = inbox.Recv();
            yield return request;
            request.Value.Reply.Reply(1);
        }
    }

    [Fact]
    public void Explore_ChoiceWithTwoReadyBranches_EitherBranchIsExplored()
    {
        // On an ordinary scheduler the first wait of a choice looks at its first branch first, so this body always
        // passes there; explored, which ready branch wins is a decision of the run.
        var found = Exploration.Explore(SecondBranchFails, new ExplorationOptions { Iterations = 1_000 });
        Assert.Equal(ExplorationFailure.Exception, found.Failure);
        Assert.Contains("the second branch won", found.Description, StringComparison.Ordinal);

        using var scheduler = new Scheduler(1);
        scheduler.Spawn(SecondBranchFails(scheduler), "test").WaitOrThrow(Waiting.Timeout);

        static IEnumerable<Event> SecondBranchFails(Scheduler scheduler)
        {
            var first = new Mailbox<int>("first");
            var second = new Mailbox<int>("second");
            first.Send(1);
            second.Send(2);
            var choice = new Choice(first.Recv(), second.Recv());
            yield return choice;
            if (choice.Index == 1)
            {
                throw new InvalidOperationException("the second branch won");
            }
        }
    }

    [Fact]
    public void Explore_TasksCompletingOutside_CompleteInASeededOrder_AndReplayExactly()
    {
        // Two threads each wait on a task that completes on the thread pool, the second task before the first in real
        // time. The run takes each completion only when the strategy picks it, so the order the threads resume in is
        // the run's decision, and the same seed gives the same trace whatever the pool did.
        var options = new ExplorationOptions { Iterations = 200, OutsideWork = OutsideWork.WhenIdle };
        var found = Exploration.Explore(OrderOfTasks, options);
        Assert.Equal(ExplorationFailure.Exception, found.Failure);
        Assert.Contains("'second' resumed before 'first'", found.Description, StringComparison.Ordinal);
        Assert.Contains(found.Trace, step => step.Contains("is woken by work outside the scheduler", StringComparison.Ordinal));
        for (var i = 0; i < 3; i++)
        {
            Assert.Equal(found.TraceHash, Exploration.Replay(OrderOfTasks, found.Seed, options).TraceHash);
        }

        var passing = Exploration.Replay(OrderOfTasks, found.Seed == 0 ? 1 : 0, options);
        for (var seed = 0; seed < 20 && passing.Failed; seed++)
        {
            passing = Exploration.Replay(OrderOfTasks, seed, options);
        }

        Assert.False(passing.Failed, "no seed of 20 let 'first' resume first");
        Assert.Equal(passing.TraceHash, Exploration.Replay(OrderOfTasks, passing.Seed, options).TraceHash);

        static IEnumerable<Event> OrderOfTasks(Scheduler scheduler)
        {
            var resumed = new List<string>();
            var first = new System.Threading.Tasks.TaskCompletionSource<int>(System.Threading.Tasks.TaskCreationOptions.RunContinuationsAsynchronously);
            var second = new System.Threading.Tasks.TaskCompletionSource<int>(System.Threading.Tasks.TaskCreationOptions.RunContinuationsAsynchronously);
            var threads = new[] { scheduler.Spawn(Await(first.Task, "first"), "first"), scheduler.Spawn(Await(second.Task, "second"), "second") };
            _ = System.Threading.Tasks.Task.Run(() =>
            {
                second.SetResult(2);
                first.SetResult(1);
            });
            foreach (var thread in threads)
            {
                yield return thread.Exited;
            }

            if (resumed[0] == "second")
            {
                throw new InvalidOperationException("'second' resumed before 'first'");
            }

            IEnumerable<Event> Await(System.Threading.Tasks.Task<int> task, string name)
            {
                yield return task.AsEvent();
                resumed.Add(name);
            }
        }
    }

    [Fact]
    public void Explore_ThreadsThatNeverStop_EndAtTheStepBound()
    {
        var result = Exploration.Explore(Spinning, new ExplorationOptions { Iterations = 3, MaxSteps = 500 });
        Assert.Equal(ExplorationFailure.StepBound, result.Failure);
        Assert.Equal(1, result.Iterations);
        Assert.Equal(500, result.Steps);

        static IEnumerable<Event> Spinning(Scheduler scheduler)
        {
            while (true)
            {
                yield return Event.Yield;
            }
        }
    }

    [Fact]
    public void Explore_BadOptions_ThrowNamingTheOption()
    {
        var exception = Assert.Throws<ArgumentOutOfRangeException>(() => Exploration.Explore(LostUpdate.Fixed, new ExplorationOptions { Iterations = 0 }));
        Assert.Equal("options.Iterations", exception.ParamName);
        exception = Assert.Throws<ArgumentOutOfRangeException>(() => Exploration.Explore(LostUpdate.Fixed, new ExplorationOptions { OutsideWork = (OutsideWork)7 }));
        Assert.Equal("options.OutsideWork", exception.ParamName);
        Assert.Throws<ArgumentNullException>(() => Exploration.Explore(null!));
    }
}
