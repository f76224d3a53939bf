using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;
using ThreadIterators.Supervision;

namespace ThreadIterators.Tests;

/// <summary>
/// Supervisors under every configuration: each strategy and restart type, the intensity counted exactly with a fake
/// clock, the backoff, the shutdown grace and order, children added and removed at run time, and a nested
/// supervisor's give-up, restart and shutdown order. Each child logs its starts and ends (<see cref="Pupils"/>), so
/// the tests check the exact order of what the supervisor did.
/// </summary>
public abstract partial class RuntimeContract
{
    private static readonly SupervisorOptions ManyRestarts = new() { Name = "sup", MaxRestarts = 100, Period = TimeSpan.FromSeconds(60) };

    [Fact]
    public void Supervisor_OneForOne_RestartsOnlyTheChildThatCrashed_AndTellsWhy()
    {
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(ManyRestarts, pupils.Spec("a"), pupils.Spec("b"), pupils.Spec("c"));
        var restarts = new ConcurrentQueue<ChildRestartedEventArgs>();
        supervisor.Restarted += (_, e) => restarts.Enqueue(e);
        using var stop = new CancellationTokenSource();
        var thread = supervisor.Start(Scheduler, stop.Token);
        WaitUntil(() => pupils.Waiting("a", "b", "c") && supervisor.Children.All(c => c.Thread is not null), "the three children start");
        Assert.Equal(["start a", "start b", "start c"], pupils.Log);
        var before = supervisor.Children.Select(c => c.Thread).ToArray();

        pupils.Crash("b");
        WaitUntil(() => restarts.Count == 1, "b is restarted");

        Assert.Equal(["end b", "start b"], pupils.Since(3));
        var after = supervisor.Children;
        Assert.Equal(["a", "b", "c"], after.Select(c => c.Id));
        Assert.Same(before[0], after[0].Thread);
        Assert.Same(before[2], after[2].Thread);
        Assert.NotSame(before[1], after[1].Thread);
        Assert.Equal([0, 1, 0], after.Select(c => c.Restarts));
        var restart = Assert.Single(restarts);
        Assert.Equal("b", restart.ChildId);
        Assert.Equal(["b"], restart.Restarted);
        Assert.Same(before[1], restart.Exit.Thread);
        Assert.Equal(ThreadOutcome.Faulted, restart.Exit.Outcome);
        Assert.Equal("b crashed", restart.Exit.Exception!.Message);
        Assert.Equal(TimeSpan.Zero, restart.Delay);
        Assert.Equal("sup/b", after[1].Thread!.Name);

        stop.Cancel();
        Join(thread);
        Assert.Equal(ThreadOutcome.Completed, thread.Outcome);
        Assert.Equal(["canceled c", "end c", "canceled b", "end b", "canceled a", "end a"], pupils.Since(5));
        Assert.Empty(supervisor.Children);
        Assert.Null(supervisor.Thread);
    }

    [Fact]
    public void Supervisor_OneForAll_ShutsTheOthersDownInReverse_ThenStartsAllInOrder()
    {
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(new SupervisorOptions { MaxRestarts = 10, Strategy = SupervisionStrategy.OneForAll }, pupils.Spec("a"), pupils.Spec("b"), pupils.Spec("c"));
        var restarts = new ConcurrentQueue<ChildRestartedEventArgs>();
        supervisor.Restarted += (_, e) => restarts.Enqueue(e);
        using var stop = new CancellationTokenSource();
        var thread = supervisor.Start(Scheduler, stop.Token);
        WaitUntil(() => pupils.Waiting("a", "b", "c") && supervisor.Children.All(c => c.Thread is not null), "the three children start");

        pupils.Crash("b");
        WaitUntil(() => restarts.Count == 1, "the children are restarted");

        Assert.Equal(["end b", "canceled c", "end c", "canceled a", "end a", "start a", "start b", "start c"], pupils.Since(3));
        Assert.Equal(["a", "b", "c"], Assert.Single(restarts).Restarted);
        Assert.All(supervisor.Children, c => Assert.Equal(1, c.Restarts));
        stop.Cancel();
        Join(thread);
    }

    [Fact]
    public void Supervisor_RestForOne_RestartsTheChildAndThoseStartedAfterIt()
    {
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(new SupervisorOptions { MaxRestarts = 10, Strategy = SupervisionStrategy.RestForOne }, pupils.Spec("a"), pupils.Spec("b"), pupils.Spec("c"), pupils.Spec("d"));
        using var stop = new CancellationTokenSource();
        var thread = supervisor.Start(Scheduler, stop.Token);
        WaitUntil(() => pupils.Waiting("a", "b", "c", "d") && supervisor.Children.All(c => c.Thread is not null), "the four children start");
        var a = supervisor.Children[0].Thread;

        pupils.Crash("b");
        WaitUntil(() => pupils.Restarts == 1, "the children are restarted");

        Assert.Equal(["end b", "canceled d", "end d", "canceled c", "end c", "start b", "start c", "start d"], pupils.Since(4));
        Assert.Same(a, supervisor.Children[0].Thread);
        stop.Cancel();
        Join(thread);
    }

    [Theory]
    [InlineData(RestartType.Permanent, true, true)]
    [InlineData(RestartType.Permanent, false, true)]
    [InlineData(RestartType.Transient, true, true)]
    [InlineData(RestartType.Transient, false, false)]
    [InlineData(RestartType.Temporary, true, false)]
    [InlineData(RestartType.Temporary, false, false)]
    public async Task Supervisor_RestartType_DecidesWhetherAnEndIsRestarted(RestartType type, bool crash, bool restarted)
    {
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(ManyRestarts, pupils.Spec("x", type), pupils.Spec("y"));
        using var stop = new CancellationTokenSource();
        var thread = supervisor.Start(Scheduler, stop.Token);
        WaitUntil(() => pupils.Waiting("x", "y") && supervisor.Children.All(c => c.Thread is not null), "the children start");
        var first = supervisor.Children[0].Thread!;

        if (crash)
        {
            pupils.Crash("x");
        }
        else
        {
            pupils.Complete("x");
        }

        // Each outcome leaves x as the supervisor shows it once it has handled the end.
        Func<bool> handled = (type, restarted) switch
        {
            (_, true) => () => pupils.Restarts == 1,
            (RestartType.Temporary, _) => () => supervisor.Children.Count == 1,
            _ => () => first.IsCompleted && supervisor.Children[0].Thread is null,
        };
        WaitUntil(handled, "the supervisor handles x's end");

        // A command's round trip: the supervisor has finished the turn that handled the end, restart included.
        await supervisor.StartChildAsync(pupils.Spec("probe")).WaitAsync(Timeout);
        var x = supervisor.Children.FirstOrDefault(c => c.Id == "x");
        Assert.Equal(restarted ? 1 : 0, supervisor.RestartCount);
        switch (type)
        {
            case RestartType.Temporary:
                Assert.Null(x);
                Assert.Equal(["y", "probe"], supervisor.Children.Select(c => c.Id));
                break;
            case RestartType.Transient when !restarted:
                Assert.NotNull(x);
                Assert.Null(x.Thread);
                break;
            default:
                Assert.NotNull(x!.Thread);
                Assert.Equal(1, x.Restarts);
                Assert.Equal(["end x", "start x", "start probe"], pupils.Since(2));
                break;
        }

        stop.Cancel();
        Join(thread);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    public void Supervisor_Intensity_GivesUpAtTheRestartOneMoreThanAllowed_CountingOneExactlyAPeriodOld_AsOtpDoes(long ticksPastThePeriod)
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var pupils = new Pupils();
        var options = new SupervisorOptions { Name = "strict", MaxRestarts = 3, Period = TimeSpan.FromSeconds(10) };
        var supervisor = pupils.Supervise(options, pupils.Spec("a"), pupils.Spec("b"), pupils.Spec("c"));
        var gaveUp = new ConcurrentQueue<SupervisorGaveUpEventArgs>();
        supervisor.GaveUp += (_, e) => gaveUp.Enqueue(e);
        var thread = supervisor.Start(scheduler);
        WaitUntil(() => pupils.Waiting("a", "b", "c") && supervisor.Children.All(c => c.Thread is not null), "the children start");

        // Restarts at t = 0, 1 and 2 s: three within any 10 s, allowed.
        for (var i = 1; i <= 3; i++)
        {
            pupils.Crash("b");
            WaitUntil(() => pupils.Restarts == i, $"restart {i}");
            clock.Advance(TimeSpan.FromSeconds(1));
        }

        // At t = 10 s the restart of t = 0 is exactly one period old. OTP still counts it (supervisor.erl keeps a
        // restart while it is no more than a period old), so a fourth restart then is one too many; a tick later the
        // first has left the period, and a fourth is allowed, but a fifth at once is the fourth within it.
        clock.Advance(TimeSpan.FromSeconds(7) + TimeSpan.FromTicks(ticksPastThePeriod));
        if (ticksPastThePeriod > 0)
        {
            pupils.Crash("b");
            WaitUntil(() => pupils.Restarts == 4, "restart 4, after the first left the period");
            Assert.Empty(gaveUp);
        }

        var logged = pupils.Log.Count;
        pupils.Crash("b");
        var fault = Assert.Throws<SupervisorGaveUpException>(() => thread.Wait(Timeout));

        Assert.Equal(ticksPastThePeriod > 0 ? 4 : 3, supervisor.RestartCount);
        Assert.Equal("b", fault.ChildId);
        Assert.Equal("strict", fault.SupervisorName);
        Assert.Equal(3, fault.MaxRestarts);
        Assert.Equal(TimeSpan.FromSeconds(10), fault.Period);
        Assert.Equal("b crashed", fault.InnerException!.Message);
        Assert.Contains("'strict'", fault.Message);
        Assert.Same(fault, Assert.Single(gaveUp).Exception);
        Assert.Equal(["end b", "canceled c", "end c", "canceled a", "end a"], pupils.Since(logged));
        Assert.Equal(ThreadOutcome.Faulted, thread.Outcome);
    }

    [Fact]
    public void Supervisor_AutoShutdownAnySignificant_EndsNormallyWhenASignificantChildEndsByItself()
    {
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(
            new SupervisorOptions { Name = "job", MaxRestarts = 10, AutoShutdown = AutoShutdown.AnySignificant },
            pupils.Spec("a"),
            pupils.Spec("b", RestartType.Transient, significant: true),
            pupils.Spec("c", RestartType.Temporary, significant: true));
        var thread = supervisor.Start(Scheduler);
        WaitUntil(() => pupils.Waiting("a", "b", "c") && supervisor.Children.All(c => c.Thread is not null), "the three children start");

        // A crash of a transient child is restarted, not an end by itself: the supervisor goes on.
        pupils.Crash("b");
        WaitUntil(() => pupils.Restarts == 1 && pupils.Waiting("b"), "b is restarted");
        Assert.False(thread.IsCompleted);

        pupils.Complete("b");
        Join(thread);

        Assert.Equal(ThreadOutcome.Completed, thread.Outcome);
        Assert.Equal(["end b", "canceled c", "end c", "canceled a", "end a"], pupils.Since(5));
        Assert.Empty(supervisor.Children);
    }

    [Fact]
    public void Supervisor_AutoShutdownAllSignificant_EndsNormallyOnceTheLastSignificantChildEndsByItself()
    {
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(
            new SupervisorOptions { Name = "jobs", MaxRestarts = 10, AutoShutdown = AutoShutdown.AllSignificant },
            pupils.Spec("a"),
            pupils.Spec("b", RestartType.Transient, significant: true),
            pupils.Spec("c", RestartType.Temporary, significant: true),
            pupils.Spec("d", RestartType.Transient));
        var thread = supervisor.Start(Scheduler);
        WaitUntil(() => pupils.Waiting("a", "b", "c", "d") && supervisor.Children.All(c => c.Thread is not null), "the four children start");

        pupils.Complete("b");
        WaitUntil(() => supervisor.Children.Single(c => c.Id == "b").Thread is null, "b has ended");
        pupils.Complete("d");
        WaitUntil(() => supervisor.Children.Single(c => c.Id == "d").Thread is null, "d has ended");
        Assert.False(thread.IsCompleted, "a significant child is still running");

        pupils.Complete("c");
        Join(thread);

        Assert.Equal(ThreadOutcome.Completed, thread.Outcome);
        Assert.Equal(["end b", "end d", "end c", "canceled a", "end a"], pupils.Since(4));
    }

    [Fact]
    public void Supervisor_Significant_RefusedWhenPermanentOrWithoutAutoShutdown_NamingTheChild()
    {
        var pupils = new Pupils();
        var permanent = Assert.Throws<ArgumentException>(() => new Supervisor(
            new SupervisorOptions { AutoShutdown = AutoShutdown.AnySignificant },
            [pupils.Spec("server", significant: true)]));
        Assert.Contains("'server'", permanent.Message, StringComparison.Ordinal);
        Assert.Contains("permanent", permanent.Message, StringComparison.Ordinal);

        var never = Assert.Throws<ArgumentException>(() => new Supervisor(
            new SupervisorOptions(),
            [pupils.Spec("job", RestartType.Transient, significant: true)]));
        Assert.Contains("'job'", never.Message, StringComparison.Ordinal);
        Assert.Contains("AutoShutdown", never.Message, StringComparison.Ordinal);

        // Added while running, the same spec is refused the same way, and the supervisor goes on.
        var supervisor = new Supervisor(new SupervisorOptions { Name = "dynamic" }, []);
        using var stop = new CancellationTokenSource();
        var thread = supervisor.Start(Scheduler, stop.Token);
        var added = Assert.Throws<ArgumentException>(() => supervisor.StartChildAsync(pupils.Spec("late", RestartType.Temporary, significant: true)).GetAwaiter().GetResult());
        Assert.Contains("'late'", added.Message, StringComparison.Ordinal);
        Assert.False(thread.IsCompleted);
        stop.Cancel();
        Join(thread);
        Assert.Equal(ThreadOutcome.Completed, thread.Outcome);
    }

    [Fact]
    public void Supervisor_ItsOwnShutdown_MakesNoDeadLetters_EvenAsChildrenEndByThemselves()
    {
        // The exits of the children it shuts down, and of one that ends by itself as the shutdown begins, are the
        // supervisor's own business: none becomes a dead letter when its thread ends.
        var deadLetters = new ConcurrentQueue<DeadLetterEventArgs>();
        Scheduler.DeadLetter += (_, e) => deadLetters.Enqueue(e);
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(
            new SupervisorOptions { Name = "jobs", MaxRestarts = 10 },
            pupils.Spec("a"),
            pupils.Spec("b", RestartType.Transient),
            pupils.Spec("c"));
        using var stop = new CancellationTokenSource();
        var thread = supervisor.Start(Scheduler, stop.Token);
        WaitUntil(() => pupils.Waiting("a", "b", "c") && supervisor.Children.All(c => c.Thread is not null), "the three children start");

        pupils.Complete("b");
        stop.Cancel();
        Join(thread);
        WaitForAll();

        Assert.Equal(ThreadOutcome.Completed, thread.Outcome);
        Assert.Empty(deadLetters.Select(e => e.ToString()));
        Assert.Equal(0, Scheduler.DeadLetterCount);
    }

    [Fact]
    public void Supervisor_DisposedWhileRestarting_ReportsNoUnobservedFault()
    {
        // A scheduler's disposal ends its threads; a supervisor it catches in the middle of a restart did not fail.
        for (var round = 0; round < 10; round++)
        {
            var unobserved = new ConcurrentQueue<UnobservedFaultEventArgs>();
            var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
            scheduler.UnobservedFault += (_, e) => unobserved.Enqueue(e);
            var supervisor = new Supervisor(
                new SupervisorOptions { Name = "busy", MaxRestarts = 1_000_000, Period = TimeSpan.FromTicks(1) },
                [new ChildSpec("crasher", () => Crash())]);
            var thread = supervisor.Start(scheduler);
            WaitUntil(() => supervisor.RestartCount >= 20 + round, "the supervisor is restarting its child over and over");

            scheduler.Dispose();

            Assert.True(thread.IsCompleted);
            if (!unobserved.IsEmpty)
            {
                Assert.Fail($"round {round}: " + string.Join(Environment.NewLine, unobserved.Select(e => $"{e.Thread}: {e.Exception}")));
            }
        }

        static IEnumerable<Event> Crash()
        {
            yield return Event.Yield;
            throw new InvalidOperationException("crashed, as it always does");
        }
    }

    [Fact]
    public void Supervisor_IntensityZero_GivesUpAtTheFirstRestart_AndAFactoryThatThrowsIsACrash()
    {
        var supervisor = new Supervisor(
            new SupervisorOptions { MaxRestarts = 0 },
            new ChildSpec("broken", () => throw new InvalidOperationException("no body today")));

        var thread = supervisor.Start(Scheduler);

        var fault = Assert.Throws<SupervisorGaveUpException>(() => thread.Wait(Timeout));
        Assert.Equal("no body today", fault.InnerException!.Message);
        Assert.Equal(0, supervisor.RestartCount);
    }

    [Fact]
    public void Supervisor_ThatGivesUpUnjoined_IsReportedAsAnUnobservedFault_ItsChildrensCrashesAreNot()
    {
        ExpectUnobservedFaults = true;
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(new SupervisorOptions { Name = "alone", MaxRestarts = 1 }, pupils.Spec("a"));
        var thread = supervisor.Start(Scheduler);
        WaitUntil(() => pupils.Waiting("a"), "the child starts");
        pupils.Crash("a");
        WaitUntil(() => pupils.Restarts == 1, "the first crash is restarted");
        pupils.Crash("a");
        WaitUntil(() => thread.IsCompleted, "the supervisor gives up");

        Scheduler.Dispose();

        var reported = Assert.Single(Unobserved);
        Assert.Same(thread, reported.Thread);
        Assert.IsType<SupervisorGaveUpException>(reported.Exception);
    }

    [Fact]
    public void Supervisor_Backoff_DelaysEachRestart_DoublingWhileTheChildKeepsFailing()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var pupils = new Pupils();
        var options = new SupervisorOptions { MaxRestarts = 100, Period = TimeSpan.FromHours(1), Backoff = new RestartBackoff(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(4)) };
        var supervisor = pupils.Supervise(options, pupils.Spec("a"), pupils.Spec("b"));
        var restarts = new ConcurrentQueue<ChildRestartedEventArgs>();
        supervisor.Restarted += (_, e) => restarts.Enqueue(e);
        using var stop = new CancellationTokenSource();
        var thread = supervisor.Start(scheduler, stop.Token);
        WaitUntil(() => pupils.Waiting("a", "b") && supervisor.Children.All(c => c.Thread is not null), "the children start");

        TimeSpan[] expected = [TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(4), TimeSpan.FromSeconds(4)];
        for (var i = 0; i < expected.Length; i++)
        {
            pupils.Crash("b");
            WaitUntil(() => supervisor.Children[1].Thread is null && Probe.TimersSettled(scheduler, 1), $"crash {i + 1} waits out its backoff");

            clock.Advance(expected[i] - TimeSpan.FromTicks(1));
            Assert.Null(supervisor.Children[1].Thread);
            Assert.Equal(i, supervisor.RestartCount);
            clock.Advance(TimeSpan.FromTicks(1));
            WaitUntil(() => restarts.Count == i + 1, $"restart {i + 1} after {expected[i]}");
        }

        Assert.Equal(expected, restarts.Select(r => r.Delay));
        Assert.Equal(["b"], restarts.SelectMany(r => r.Restarted).Distinct());

        // A child that ran for the backoff's reset time (its maximum) before failing waits the minimum again.
        clock.Advance(TimeSpan.FromSeconds(4));
        pupils.Crash("b");
        WaitUntil(() => supervisor.Children[1].Thread is null && Probe.TimersSettled(scheduler, 1), "the crash after a long run waits");
        clock.Advance(TimeSpan.FromSeconds(1));
        WaitUntil(() => pupils.Restarts == 5, "restart 5 after the minimum");
        stop.Cancel();
        Join(thread);
    }

    [Fact]
    public void Supervisor_Shutdown_GivesEachChildItsGrace_ThenStopsIt_InReverseStartOrder()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(
            new SupervisorOptions { Name = "graceful" },
            pupils.Spec("heeds"), pupils.Plain("plain"), pupils.Deaf("deaf", TimeSpan.FromSeconds(5)), pupils.Deaf("brutal", TimeSpan.Zero));
        using var stop = new CancellationTokenSource();
        var thread = supervisor.Start(scheduler, stop.Token);
        WaitUntil(() => pupils.Waiting("heeds", "plain", "deaf", "brutal") && supervisor.Children.All(c => c.Thread is not null), "the children start");
        var children = supervisor.Children.Select(c => c.Thread!).ToArray();

        stop.Cancel();
        WaitUntil(() => children[3].IsCompleted && Probe.TimersSettled(scheduler, 1), "brutal is stopped at once, and deaf's grace runs");
        Assert.False(children[2].IsCompleted, "deaf has its grace");
        clock.Advance(TimeSpan.FromSeconds(5) - TimeSpan.FromTicks(1));
        Assert.False(children[2].IsCompleted, "deaf has its grace to the last tick");
        clock.Advance(TimeSpan.FromTicks(1));
        Join(thread);

        Assert.Equal(["end brutal", "end deaf", "end plain", "canceled heeds", "end heeds"], pupils.Since(4));
        Assert.Equal(ThreadOutcome.Completed, children[0].Outcome);
        Assert.All(children.Skip(1), c => Assert.IsType<GreenThreadStoppedException>(c.Exception));
        Assert.Contains("'graceful' shut it down after its grace of 00:00:05", children[2].Exception!.Message);
        Assert.Equal(ThreadOutcome.Completed, thread.Outcome);
    }

    [Fact]
    public async Task Supervisor_ChildrenAddedAndRemovedAtRunTime_AreStartedLast_AndShutDownOnRemoval()
    {
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(ManyRestarts, pupils.Spec("a"));
        using var stop = new CancellationTokenSource();
        var thread = supervisor.Start(Scheduler, stop.Token);

        var added = await supervisor.StartChildAsync(pupils.Spec("d")).WaitAsync(Timeout);
        Assert.Equal("sup/d", added.Name);
        Assert.Equal(["a", "d"], supervisor.Children.Select(c => c.Id));
        var duplicate = await Assert.ThrowsAsync<ArgumentException>(() => supervisor.StartChildAsync(pupils.Spec("a")).WaitAsync(Timeout));
        Assert.Contains("'a'", duplicate.Message);

        pupils.Crash("d");
        WaitUntil(() => pupils.Restarts == 1, "the added child is restarted like any other");
        Assert.True(await supervisor.RemoveChildAsync("d").WaitAsync(Timeout));
        Assert.False(await supervisor.RemoveChildAsync("d").WaitAsync(Timeout));
        Assert.Equal(["a"], supervisor.Children.Select(c => c.Id));
        Assert.Equal(["start a", "start d", "end d", "start d", "canceled d", "end d"], pupils.Log);

        stop.Cancel();
        Join(thread);
        var late = await Assert.ThrowsAsync<InvalidOperationException>(() => supervisor.StartChildAsync(pupils.Spec("e")).WaitAsync(Timeout));
        Assert.Contains("'sup' is not running", late.Message);
        Assert.Equal(1, supervisor.RestartCount);
    }

    [Fact]
    public void Supervisor_Nested_ChildSupervisorGivesUp_ParentRestartsIt_AndShutdownRunsDepthFirstInReverse()
    {
        var pupils = new Pupils();
        var inner = pupils.Supervise(new SupervisorOptions { Name = "inner", MaxRestarts = 0 }, pupils.Spec("i1"), pupils.Spec("i2"));
        var outer = pupils.Supervise(new SupervisorOptions { Name = "outer", MaxRestarts = 5 }, pupils.Spec("a"), inner.ToChildSpec(), pupils.Spec("z"));
        var restarts = new ConcurrentQueue<ChildRestartedEventArgs>();
        outer.Restarted += (_, e) => restarts.Enqueue(e);
        using var stop = new CancellationTokenSource();
        var thread = outer.Start(Scheduler, stop.Token);
        WaitUntil(() => pupils.Waiting("a", "i1", "i2", "z"), "the tree starts");

        // Each supervisor starts its children in order; the inner one starts its own when its thread first runs.
        Assert.Equal(["start a", "start z"], pupils.Log.Where(e => e is "start a" or "start z"));
        Assert.Equal(["start i1", "start i2"], pupils.Log.Where(e => e is "start i1" or "start i2"));
        var firstInner = inner.Thread;

        pupils.Crash("i1");
        WaitUntil(() => restarts.Count == 1 && pupils.Log.Count == 9 && pupils.Waiting("i1", "i2"), "the outer supervisor restarts the inner one");

        Assert.Equal(["end i1", "canceled i2", "end i2", "start i1", "start i2"], pupils.Since(4));
        var restart = Assert.Single(restarts);
        Assert.Equal("inner", restart.ChildId);
        Assert.IsType<SupervisorGaveUpException>(restart.Exit.Exception);
        Assert.Same(firstInner, restart.Exit.Thread);
        Assert.NotSame(firstInner, inner.Thread);
        Assert.Equal(0, inner.RestartCount);

        stop.Cancel();
        Join(thread);
        Assert.Equal(["canceled z", "end z", "canceled i2", "end i2", "canceled i1", "end i1", "canceled a", "end a"], pupils.Since(9));
        Assert.Equal(ThreadOutcome.Faulted, restart.Exit.Thread.Outcome);
    }

    [Fact]
    public void Supervisor_StoppedItself_StopsEveryChild()
    {
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(ManyRestarts, pupils.Spec("a"), pupils.Plain("b"));
        var thread = supervisor.Start(Scheduler);
        WaitUntil(() => pupils.Waiting("a", "b") && supervisor.Children.All(c => c.Thread is not null), "the children start");
        var children = supervisor.Children.Select(c => c.Thread!).ToArray();

        thread.Stop("enough");

        foreach (var child in children)
        {
            Assert.Throws<GreenThreadStoppedException>(() => child.Wait(Timeout));
        }

        Assert.Throws<GreenThreadStoppedException>(() => thread.Wait(Timeout));
        Assert.Equal(0, supervisor.RestartCount);
        Assert.Null(supervisor.Thread);
    }

    [Fact]
    public void Supervisor_RunsOnOneThreadAtATime_AndCanRunAgainAfterItsEnd()
    {
        var pupils = new Pupils();
        var supervisor = pupils.Supervise(ManyRestarts, pupils.Spec("a"));
        using var stop = new CancellationTokenSource();
        var thread = supervisor.Start(Scheduler, stop.Token);

        var twice = Assert.Throws<InvalidOperationException>(() => supervisor.Start(Scheduler));
        Assert.Contains("'sup' is already running", twice.Message);
        stop.Cancel();
        Join(thread);

        var again = supervisor.Start(Scheduler);
        WaitUntil(() => pupils.Log.Count == 4, "the second run starts its child");
        again.Stop();
        Assert.Throws<GreenThreadStoppedException>(() => again.Wait(Timeout));
    }
}
