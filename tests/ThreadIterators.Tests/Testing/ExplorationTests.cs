using System;
using System.Collections.Generic;
using System.Linq;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// The controlled scheduler: seeded exploration finds bugs that need a particular interleaving, a seed replays its
/// run exactly, time is virtual, and deadlocks and livelocks end a run with a report.
/// </summary>
public sealed class ExplorationTests
{
    private static readonly TimeSpan Forever = System.Threading.Timeout.InfiniteTimeSpan;

    private sealed record Get(ReplyTo<int> Reply);

    private sealed record Set(int Value, ReplyTo<bool> Reply);

    private sealed record Increment(ReplyTo<int> Reply);

    [Theory]
    [InlineData(ExplorationStrategy.Random)]
    [InlineData(ExplorationStrategy.Pct)]
    public void Explore_LostUpdateThroughGetThenSet_FoundAndItsSeedReplaysTheSameTrace(ExplorationStrategy strategy)
    {
        var options = new ExplorationOptions { Strategy = strategy, Iterations = 1_000 };
        var found = Exploration.Explore(LostUpdate, options);

        Assert.True(found.Failed, found.ToString());
        Assert.Equal(ExplorationFailure.Exception, found.Failure);
        Assert.Contains("lost update", found.Description, StringComparison.Ordinal);
        Assert.NotEmpty(found.Trace);
        Assert.Contains(found.Trace, step => step.Contains("'client 1'", StringComparison.Ordinal));

        var replayed = Exploration.Replay(LostUpdate, found.Seed, options);
        Assert.Equal(found.Failure, replayed.Failure);
        Assert.Equal(found.TraceHash, replayed.TraceHash);
        Assert.Equal(found.Trace, replayed.Trace);
        Assert.Equal(found.Steps, replayed.Steps);
    }

    [Fact]
    public void Explore_SameOptionsTwice_SameRunsFailAtTheSameSeedWithTheSameTrace()
    {
        var options = new ExplorationOptions { Iterations = 1_000, FirstSeed = 7 };
        var first = Exploration.Explore(LostUpdate, options);
        var second = Exploration.Explore(LostUpdate, options);
        Assert.True(first.Failed);
        Assert.Equal(first.Seed, second.Seed);
        Assert.Equal(first.TraceHash, second.TraceHash);
    }

    [Fact]
    public void Explore_TheFixedCounter_PassesEveryRunUnderBothStrategies()
    {
        foreach (var strategy in new[] { ExplorationStrategy.Random, ExplorationStrategy.Pct })
        {
            var result = Exploration.Explore(FixedCounter, new ExplorationOptions { Strategy = strategy, Iterations = 300 });
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
        var test = scheduler.Spawn(FixedCounter(scheduler), "test");
        test.WaitOrThrow(Waiting.Timeout);
    }

    [Fact]
    public void Explore_RingOfAsksThatCanDeadlock_FoundWithTheCycleInTheReport()
    {
        var found = Exploration.Explore(Philosophers, new ExplorationOptions { Iterations = 1_000 });
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
        // A reply that never comes: the ask's 30 s deadline fires as soon as nothing else can run.
        var result = Exploration.Explore(TimesOut, new ExplorationOptions { Iterations = 10 });
        Assert.False(result.Failed, result.ToString());
        Assert.True(result.VirtualTime >= TimeSpan.FromSeconds(30), $"virtual time {result.VirtualTime}");

        static IEnumerable<Event> TimesOut(Scheduler scheduler)
        {
            var silent = new Mailbox<Get>("silent");
            var server = scheduler.Spawn(Silent(silent), "silent server");
            var ask = silent.Ask<int>(reply => new Get(reply), TimeSpan.FromSeconds(30));
            yield return ask;
            if (ask.Exception is not TimeoutException)
            {
                throw new InvalidOperationException($"expected a timeout, got {ask.Exception?.ToString() ?? ask.Value.ToString()}");
            }

            server.Stop();
            yield return server.Ended;
        }

        static IEnumerable<Event> Silent(Mailbox<Get> inbox)
        {
            yield return inbox.Recv();
            yield return Event.Sleep(TimeSpan.FromDays(1));
        }
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
            var ask = inbox.Ask<int>(reply => new Get(reply), TimeSpan.FromSeconds(1));
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
        var exception = Assert.Throws<ArgumentOutOfRangeException>(() => Exploration.Explore(FixedCounter, new ExplorationOptions { Iterations = 0 }));
        Assert.Equal("options.Iterations", exception.ParamName);
        Assert.Throws<ArgumentNullException>(() => Exploration.Explore(null!));
    }

    /// <summary>Two clients each read the counter and then write it plus one: an interleaving of the two loses an update.</summary>
    internal static IEnumerable<Event> LostUpdate(Scheduler scheduler)
    {
        var inbox = new Mailbox<object>("counter");
        var value = 0;
        var server = scheduler.Spawn(Server(), "counter");
        var clients = Enumerable.Range(0, 2).Select(i => scheduler.Spawn(Client(), $"client {i}")).ToList();
        foreach (var client in clients)
        {
            yield return client.Exited;
        }

        inbox.Complete();
        yield return server.Exited;
        if (value != 2)
        {
            throw new InvalidOperationException($"lost update: two increments left the counter at {value}");
        }

        IEnumerable<Event> Server()
        {
            var request = inbox.Recv();
            while (true)
            {
                yield return request;
                if (request.IsCompleted)
                {
                    yield break;
                }

                switch (request.Value)
                {
                    case Get get:
                        get.Reply.Reply(value);
                        break;
                    case Set set:
                        value = set.Value;
                        set.Reply.Reply(true);
                        break;
                }
            }
        }

        IEnumerable<Event> Client()
        {
            var get = inbox.Ask<int>(reply => new Get(reply), Forever);
            yield return get;
            var set = inbox.Ask<bool>(reply => new Set(get.Value + 1, reply), Forever);
            yield return set;
        }
    }

    /// <summary>The fix: the server increments, so no interleaving of the clients can lose an update.</summary>
    internal static IEnumerable<Event> FixedCounter(Scheduler scheduler)
    {
        var inbox = new Mailbox<Increment>("counter");
        var value = 0;
        var server = scheduler.Spawn(Server(), "counter");
        var clients = Enumerable.Range(0, 2).Select(i => scheduler.Spawn(Client(), $"client {i}")).ToList();
        foreach (var client in clients)
        {
            yield return client.Exited;
        }

        inbox.Complete();
        yield return server.Exited;
        if (value != 2)
        {
            throw new InvalidOperationException($"lost update: two increments left the counter at {value}");
        }

        IEnumerable<Event> Server()
        {
            var request = inbox.Recv();
            while (true)
            {
                yield return request;
                if (request.IsCompleted)
                {
                    yield break;
                }

                request.Value.Reply.Reply(++value);
            }
        }

        IEnumerable<Event> Client()
        {
            yield return inbox.Ask<int>(reply => new Increment(reply), Forever);
        }
    }

    /// <summary>
    /// Three philosophers, each the keeper of its left fork, which it hands to its left neighbour on request. Each
    /// sits down (receiving its seat, so it is its mailbox's receiver), hands its fork over if the request is already
    /// there, thinks, then asks its right neighbour for theirs, and hands its own over afterwards if it had not. If every
    /// philosopher asks before its own request has arrived, every ask waits on a philosopher who is asking too.
    /// </summary>
    internal static IEnumerable<Event> Philosophers(Scheduler scheduler)
    {
        const int count = 3;
        var inboxes = Enumerable.Range(0, count).Select(i => new Mailbox<object>($"philosopher {i}")).ToArray();
        foreach (var inbox in inboxes)
        {
            inbox.Send("seat");
        }

        var threads = Enumerable.Range(0, count).Select(i => scheduler.Spawn(Philosopher(i), $"philosopher {i}")).ToList();
        foreach (var thread in threads)
        {
            yield return thread.Exited;
        }

        IEnumerable<Event> Philosopher(int index)
        {
            var inbox = inboxes[index];
            var next = inbox.Recv();
            yield return next;
            var served = false;
            if (inbox.TryRecv(out var early))
            {
                ((Get)early).Reply.Reply(index);
                served = true;
            }

            // Thinks a while before asking, so a neighbour's request may arrive after the look.
            yield return Event.Yield;
            var ask = inboxes[(index + 1) % count].Ask<int>(reply => new Get(reply), Forever);
            yield return ask;
            if (!served)
            {
                yield return next;
                ((Get)next.Value).Reply.Reply(index);
            }
        }
    }
}
