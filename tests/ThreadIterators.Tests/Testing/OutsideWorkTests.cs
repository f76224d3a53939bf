using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;
using ThreadIterators.Testing;

namespace ThreadIterators.Tests;

/// <summary>
/// Work an explored run cannot control: undeclared, a wait on it (or a wake-up from another OS thread) fails the run
/// clearly, naming the thread and the work; declared, its completions are taken in an order the seed decides, even
/// those that had happened already when the thread yielded, so a seed replays the same trace whatever the pool did.
/// </summary>
public sealed class OutsideWorkTests
{
    private static readonly ExplorationOptions Declared = new() { Iterations = 1, OutsideWork = OutsideWork.WhenIdle };

    [Fact]
    public void Undeclared_AWaitOnATaskNotComplete_FailsTheRun_NamingTheThreadAndTheTask()
    {
        var never = new TaskCompletionSource<int>();

        var result = Exploration.Explore(Test, new ExplorationOptions { Iterations = 5 });

        Assert.Equal(ExplorationFailure.UndeclaredOutsideWork, result.Failure);
        Assert.Equal(1, result.Iterations);
        Assert.Contains("'fetcher' waits for a Task<Int32> to complete, outside the scheduler", result.Description, StringComparison.Ordinal);
        Assert.Contains("ExplorationOptions.OutsideWork = OutsideWork.WhenIdle", result.Description, StringComparison.Ordinal);

        IEnumerable<Event> Test(Scheduler scheduler)
        {
            var fetcher = scheduler.Spawn(Fetch(), "fetcher");
            yield return fetcher.Exited;
        }

        IEnumerable<Event> Fetch()
        {
            yield return never.Task.AsEvent();
        }
    }

    [Theory]
    [InlineData("token")]
    [InlineData("channel")]
    public void Undeclared_AWaitOnATokenOrAChannel_FailsTheRun(string kind)
    {
        using var source = new CancellationTokenSource();
        var channel = Channel.CreateUnbounded<int>();

        var result = Exploration.Explore(Test, new ExplorationOptions { Iterations = 5 });

        Assert.Equal(ExplorationFailure.UndeclaredOutsideWork, result.Failure);
        Assert.Contains(kind == "token" ? "a cancellation token to be canceled" : "channel", result.Description, StringComparison.Ordinal);

        IEnumerable<Event> Test(Scheduler scheduler)
        {
            yield return kind == "token" ? Event.WhenCanceled(source.Token) : channel.Reader.CreateReadEvent();
        }
    }

    [Fact]
    public void Undeclared_ATaskAlreadyComplete_IsNotOutsideWork()
    {
        var result = Exploration.Explore(Test, new ExplorationOptions { Iterations = 50 });

        Assert.False(result.Failed, result.ToString());

        static IEnumerable<Event> Test(Scheduler scheduler)
        {
            var read = Task.FromResult(42).AsEvent();
            yield return read;
            Assert.Equal(42, read.Result);
        }
    }

    [Fact]
    public void Undeclared_ATimeProviderDelay_IsVirtualTime_NotOutsideWork()
    {
        // Task.Delay on the run's TimeProvider arms a timer of its virtual clock; the run fires it on its own OS
        // thread, so the task completes inside the run.
        var result = Exploration.Explore(Test, new ExplorationOptions { Iterations = 20 });

        Assert.False(result.Failed, result.ToString());
        Assert.Equal(TimeSpan.FromSeconds(30), result.VirtualTime);

        static IEnumerable<Event> Test(Scheduler scheduler)
        {
            var start = scheduler.TimeProvider.GetUtcNow();
            yield return Task.Delay(TimeSpan.FromSeconds(30), scheduler.TimeProvider).AsEvent();
            Assert.Equal(TimeSpan.FromSeconds(30), scheduler.TimeProvider.GetUtcNow() - start);
        }
    }

    [Fact]
    public void Undeclared_ATaskCompletedByAnotherGreenThread_IsNotOutsideWork()
    {
        var result = Exploration.Explore(Test, new ExplorationOptions { Iterations = 50 });

        Assert.False(result.Failed, result.ToString());

        static IEnumerable<Event> Test(Scheduler scheduler)
        {
            var done = new TaskCompletionSource<int>();
            var completer = scheduler.Spawn(Complete(done), "completer");
            var wait = done.Task.AsEvent();
            yield return wait;
            Assert.Equal(7, wait.Result);
            yield return completer.Exited;
        }

        static IEnumerable<Event> Complete(TaskCompletionSource<int> done)
        {
            yield return Event.Yield;
            done.SetResult(7);
        }
    }

    [Fact]
    public void Undeclared_AWakeUpFromAnotherOsThread_FailsTheRun()
    {
        // The receiver parks on its mailbox (the wait graph shows it); then, inside one step, a pool thread sends to
        // it and this step waits for that send, so the wake-up arrives while the run goes on.
        var result = Exploration.Explore(Test, new ExplorationOptions { Iterations = 5 });

        Assert.Equal(ExplorationFailure.UndeclaredOutsideWork, result.Failure);
        Assert.Contains("'receiver' was woken from another OS thread while it waited for", result.Description, StringComparison.Ordinal);

        static IEnumerable<Event> Test(Scheduler scheduler)
        {
            var inbox = new Mailbox<int>("inbox");
            var receive = inbox.Recv();
            var receiver = scheduler.Spawn(Receive(receive), "receiver");
            while (scheduler.GetWaitGraph().Find(receiver)?.Event != receive)
            {
                yield return Event.Yield;
            }

            // Blocks this step on purpose: the send from another OS thread must land while the receiver is parked. A
            // thread of its own, as Task.Wait may run a task inline, on this very thread.
            var sending = new Thread(() => inbox.Send(1));
            sending.Start();
#pragma warning disable TI0001
            sending.Join();
#pragma warning restore TI0001
            yield return receiver.Exited;
        }

        static IEnumerable<Event> Receive(Event receive)
        {
            yield return receive;
        }
    }

    [Fact]
    public void Declared_ATaskRacingAMessageInAChoice_ReplaysTheSameTraceWhateverThePoolDid()
    {
        // The task completes on the pool at some moment of real time; the message comes from a green thread. The run
        // takes the task's completion only when nothing else can go, so the message wins, whenever the pool ran.
        AssertEachSeedReplays(Test, wokenFromOutside: false);

        static IEnumerable<Event> Test(Scheduler scheduler)
        {
            var inbox = new Mailbox<int>("inbox");
            var task = Task.Run(() => 1);
            var sender = scheduler.Spawn(Send(inbox), "sender");
            var choice = new Choice(task.AsEvent(), inbox.Recv());
            yield return choice;
            Assert.Equal(1, choice.Index);
            yield return sender.Exited;
        }

        static IEnumerable<Event> Send(Mailbox<int> inbox)
        {
            yield return Event.Yield;
            inbox.Send(2);
        }
    }

    [Fact]
    public void Declared_ATokenCanceledFromThePool_ReplaysTheSameTrace()
    {
        AssertEachSeedReplays(Test, wokenFromOutside: true);

        static IEnumerable<Event> Test(Scheduler scheduler)
        {
            var source = new CancellationTokenSource();
            _ = Task.Run(source.Cancel);
            var other = scheduler.Spawn(Steps(), "other");
            yield return Event.Yield;
            yield return Event.WhenCanceled(source.Token);
            yield return other.Exited;
            source.Dispose();
        }
    }

    [Fact]
    public void Declared_AChannelWrittenFromThePool_ReplaysTheSameTrace()
    {
        AssertEachSeedReplays(Test, wokenFromOutside: true);

        static IEnumerable<Event> Test(Scheduler scheduler)
        {
            var channel = Channel.CreateUnbounded<int>();
            _ = Task.Run(() => channel.Writer.TryWrite(1));
            var other = scheduler.Spawn(Steps(), "other");
            yield return Event.Yield;
            var read = channel.Reader.CreateReadEvent();
            yield return read;
            Assert.Equal(1, read.Value);
            yield return other.Exited;
        }
    }

    [Fact]
    public void Declared_ATaskAlreadyCompleteInAChoice_WinsOnlyWhenTheRunTakesItsCompletion()
    {
        // Both branches are complete when the choice is made; declared, the task's completion is outside work the run
        // takes only when nothing else can go, so the message wins, every seed.
        var result = Exploration.Explore(Test, new ExplorationOptions { Iterations = 50, OutsideWork = OutsideWork.WhenIdle });

        Assert.False(result.Failed, result.ToString());

        static IEnumerable<Event> Test(Scheduler scheduler)
        {
            var inbox = new Mailbox<int>("inbox");
            inbox.Send(2);
            var choice = new Choice(Task.FromResult(1).AsEvent(), inbox.Recv());
            yield return choice;
            Assert.Equal(1, choice.Index);
        }
    }

    [Theory]
    [InlineData(ExplorationStrategy.Random)]
    [InlineData(ExplorationStrategy.Pct)]
    public void Anytime_AnOutsideCompletion_MayOvertakeWorkTheRunCouldStillDo_AndReplays(ExplorationStrategy strategy)
    {
        // 'fetcher' waits on a computation on the pool; 'worker' takes three steps. Taken only when nothing else can
        // move, the computation always comes after the worker's steps; taken at any step, it may come first.
        var whenIdle = Exploration.Explore(FetchRacingWork, new ExplorationOptions { Strategy = strategy, Iterations = 200, OutsideWork = OutsideWork.WhenIdle });
        Assert.False(whenIdle.Failed, whenIdle.ToString());

        var options = new ExplorationOptions { Strategy = strategy, Iterations = 200, OutsideWork = OutsideWork.Anytime };
        var anytime = Exploration.Explore(FetchRacingWork, options);
        Assert.Equal(ExplorationFailure.Exception, anytime.Failure);
        Assert.Contains("the fetch completed before the work", anytime.Description, StringComparison.Ordinal);
        for (var i = 0; i < 3; i++)
        {
            Assert.Equal(anytime.TraceHash, Exploration.Replay(FetchRacingWork, anytime.Seed, options).TraceHash);
        }

        static IEnumerable<Event> FetchRacingWork(Scheduler scheduler)
        {
            var order = new List<string>();
            var fetcher = scheduler.Spawn(Fetch(order), "fetcher");
            var worker = scheduler.Spawn(Work(order), "worker");
            yield return fetcher.Exited;
            yield return worker.Exited;
            if (order[0] == "fetch")
            {
                throw new InvalidOperationException("the fetch completed before the work");
            }
        }

        static IEnumerable<Event> Fetch(List<string> order)
        {
            yield return Task.Run(() => 42).AsEvent();
            order.Add("fetch");
        }

        static IEnumerable<Event> Work(List<string> order)
        {
            foreach (var step in Steps())
            {
                yield return step;
            }

            order.Add("work");
        }
    }

    private static IEnumerable<Event> Steps()
    {
        for (var i = 0; i < 3; i++)
        {
            yield return Event.Yield;
        }
    }

    /// <summary>Replays seeds 0 to 9 five times each: every replay of a seed gives its trace hash.</summary>
    private static void AssertEachSeedReplays(Func<Scheduler, IEnumerable<Event>> test, bool wokenFromOutside)
    {
        for (var seed = 0; seed < 10; seed++)
        {
            var first = Exploration.Replay(test, seed, Declared);
            Assert.False(first.Failed, first.ToString());
            Assert.Equal(wokenFromOutside, first.Trace.Any(step => step.Contains("is woken by work outside the scheduler", StringComparison.Ordinal)));
            for (var i = 0; i < 5; i++)
            {
                Assert.Equal(first.TraceHash, Exploration.Replay(test, seed, Declared).TraceHash);
            }
        }
    }
}
