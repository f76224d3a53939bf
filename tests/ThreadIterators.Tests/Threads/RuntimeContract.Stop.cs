using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// <see cref="GreenThread.Stop"/> on a thread parked on each kind of wait, under every configuration: the wait is
/// withdrawn without effect, the thread's <c>finally</c> blocks run once on a worker of its scheduler, and it and its
/// joiners end canceled, with the reason.
/// </summary>
public abstract partial class RuntimeContract
{
    [Fact]
    public void Stop_ParkedOnMailboxReceive_TakesNoMessage_AndTheMailboxServesTheNextReceiver()
    {
        var inbox = new Mailbox<int>("inbox") { OutlivesReceiver = true };
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [inbox.Recv()], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => inbox.IsReceiverParked, "its receive");

        // Sent once the stop has taken the wait: it stays, and a new receiver takes the mailbox over.
        inbox.Send(7);
        Assert.Equal(1, inbox.Count);
        var taken = 0;
        Run(TakeOne(inbox, value => taken = value), "next receiver");
        Assert.Equal(7, taken);
    }

    [Fact]
    public void Stop_ParkedOnMailboxReceive_MessageSentRightAfterTheStop_StaysInTheMailbox()
    {
        for (var round = 0; round < 50; round++)
        {
            var inbox = new Mailbox<int>($"inbox {round}") { OutlivesReceiver = true };
            var record = new StopRecord();
            var victim = Scheduler.Spawn(Guarded(() => [inbox.Recv()], record), "victim");
            WaitUntil(() => inbox.IsReceiverParked, "the victim parks on its receive");

            // The stop has taken the park mark by the time it returns, so this send finds no receiver to wake.
            Assert.True(victim.Stop(StopReason));
            inbox.Send(round);
            Assert.Throws<GreenThreadStoppedException>(() => victim.Wait(Timeout));
            Assert.Equal(0, record.Resumed);
            Assert.Equal(1, inbox.Count);
        }
    }

    [Fact]
    public void Stop_ParkedOnSharedMailboxReceive_TakesNoMessage_AndAnotherReceiverGetsIt()
    {
        var shared = new SharedMailbox<int>("shared");
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [shared.CreateReceiveEvent()], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => shared.WaitingReceivers == 1, "its shared receive");

        shared.Send(7);
        Assert.Equal(1, shared.Count);
        var taken = 0;
        Run(TakeShared(shared, value => taken = value), "other receiver");
        Assert.Equal(7, taken);
        Assert.Equal(0, shared.Count);
    }

    [Fact]
    public void Stop_ParkedOnPut_SendsNothing_AndHoldsNoRoom()
    {
        var bounded = new Mailbox<int>(1, "bounded");
        bounded.Send(1);
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [bounded.Put(2)], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.WaitingSenders(bounded) == 1, "its put");
        AssertStoppedPutLeftRoom(bounded);
    }

    [Fact]
    public void Stop_ParkedOnCreatedPutEvent_SendsNothing_AndHoldsNoRoom()
    {
        var bounded = new Mailbox<int>(1, "bounded");
        bounded.Send(1);
        var put = bounded.CreatePutEvent();
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [put.For(2)], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.WaitingSenders(bounded) == 1, "its put event");
        Assert.False(put.IsSent);
        AssertStoppedPutLeftRoom(bounded);
    }

    [Fact]
    public void Stop_ParkedOnExited_LeavesTheJoinedThreadsJoiners()
    {
        var hold = new Mailbox<int>("hold");
        var joined = Scheduler.Spawn(TakeOne(hold, _ => { }), "joined");
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [joined.Exited], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.JoinerCount(joined) == 1, "its join");
        Assert.Equal(0, Probe.JoinerCount(joined));
        hold.Send(1);
        Join(joined);
    }

    [Fact]
    public void Stop_ParkedOnEnded_LeavesTheJoinedThreadsJoiners()
    {
        var hold = new Mailbox<int>("hold");
        var joined = Scheduler.Spawn(TakeOne(hold, _ => { }), "joined");
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [joined.Ended], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.JoinerCount(joined) == 1, "its join");
        Assert.Equal(0, Probe.JoinerCount(joined));
        hold.Send(1);
        Join(joined);
    }

    [Fact]
    public void Stop_ParkedOnTask_LeavesTheWaitLingering_AndTheEventServesAgainOnceTheTaskCompletes()
    {
        var task = new TaskCompletionSource<int>();
        var wait = new TaskEvent<int>();
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [wait.For(task.Task)], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.IsWaiting(wait), "its task");
        Assert.False(Probe.IsWaiting(wait));

        // The continuation finds nobody to wake; once it has run, the event can be armed again.
        task.SetResult(1);
        WaitUntil(() => Probe.HasFired(wait), "the task's continuation runs");
        var result = 0;
        Run(AwaitResult(wait, Task.FromResult(2), value => result = value), "next waiter");
        Assert.Equal(2, result);
    }

    [Fact]
    public void Stop_ParkedOnCreditAcquire_TakesNoCredit()
    {
        var window = new CreditWindow(1, "credits");
        Assert.True(window.TryAcquire());
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [window.Acquire()], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.WaitingForCredit(window) == 1, "its acquire");
        Assert.Equal(0, Probe.WaitingForCredit(window));

        // The credit released goes back to the window, not to the stopped acquirer's place; exactly one is there.
        window.Release();
        Assert.Equal(1, window.Available);
        Assert.True(window.TryAcquire());
        Assert.False(window.TryAcquire());
        window.Release();
        Assert.Equal(1, window.Available);
    }

    [Fact]
    public void Stop_ParkedOnSleep_CancelsItsTimer()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var record = new StopRecord();
        var victim = scheduler.Spawn(Guarded(() => [Event.Sleep(TimeSpan.FromHours(1))], record), "victim");

        StopWhileParked(scheduler, victim, record, () => Probe.TimersSettled(scheduler, 1), "its sleep");
        Assert.Equal(0, Probe.PendingTimers(scheduler));
        clock.Advance(TimeSpan.FromHours(2));
        Assert.Equal(0, record.Resumed);
    }

    [Fact]
    public void Stop_ParkedOnChoice_WithdrawsEveryBranch()
    {
        var inbox = new Mailbox<int>("inbox") { OutlivesReceiver = true };
        var shared = new SharedMailbox<int>("shared");
        var bounded = new Mailbox<int>(1, "bounded") { OutlivesReceiver = true };
        bounded.Send(1);
        var window = new CreditWindow(1, "credits");
        Assert.True(window.TryAcquire());
        var hold = new Mailbox<int>("hold");
        var joined = Scheduler.Spawn(TakeOne(hold, _ => { }), "joined");
        var task = new TaskCompletionSource();
        using var source = new CancellationTokenSource();
        var put = bounded.CreatePutEvent();
        var choice = new Choice(
            inbox.Recv(), shared.CreateReceiveEvent(), put.For(2), joined.Ended, task.Task.AsEvent(), window.Acquire(), Event.WhenCanceled(source.Token));
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [choice], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.IsParked(choice), "its choice");
        Assert.Equal(-1, choice.Index);

        // Every branch is gone, and none took anything.
        inbox.Send(1);
        shared.Send(2);
        Assert.Equal(1, inbox.Count);
        Assert.Equal(1, shared.Count);
        Assert.False(put.IsSent);
        Assert.Equal(1, bounded.Count);
        Assert.Equal(0, Probe.JoinerCount(joined));
        task.SetResult();
        source.Cancel();
        window.Release();
        Assert.Equal(1, window.Available);
        hold.Send(1);
        Join(joined);
        var taken = 0;
        Run(TakeOne(inbox, value => taken = value), "next receiver");
        Assert.Equal(1, taken);
    }

    [Fact]
    public void Stop_ParkedOnPullerNext_EndsIt_AndTheProducerFindsTheRequest()
    {
        var source = new PullSource<int>("source");
        var puller = source.Connect(4);
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [puller.Next()], record), "consumer");

        StopWhileParked(Scheduler, victim, record, () => puller.Replies.IsReceiverParked, "its next batch");

        // The request went out with the yield, before the wait: a producer still fills it, and the batch stays unread.
        Run(Offer(source, 4), "producer");
        Assert.Equal(1, puller.Replies.Count);
    }

    [Fact]
    public void Stop_ParkedOnOffer_EndsIt_AndTheRequestStaysForTheNextProducer()
    {
        var source = new PullSource<int>("source");
        var puller = source.Connect(1);
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [source.Offer(1)], record), "producer");

        StopWhileParked(Scheduler, victim, record, () => source.Requests.IsReceiverParked, "its offer");

        var items = new List<int>();
        var consumer = Scheduler.Spawn(Consume(puller, items, batches: 1), "consumer");
        WaitUntil(() => source.Requests.Count == 1, "the consumer's request waits in the request mailbox");
        Run(Offer(source, 1), "next producer");
        Join(consumer);
        Assert.Equal([0], items);
    }

    [Fact]
    public void Stop_ParkedOnComplete_EndsIt()
    {
        var source = new PullSource<int>("source");
        source.Connect(2);
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [source.Complete()], record), "producer");

        StopWhileParked(Scheduler, victim, record, () => source.Requests.IsReceiverParked, "its complete");
    }

    [Fact]
    public void Stop_ParkedOnWhenCanceled_UnregistersFromTheToken()
    {
        using var cancellation = new CancellationTokenSource();
        var whenCanceled = Event.WhenCanceled(cancellation.Token);
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [whenCanceled], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.IsWaiting(whenCanceled), "its token");
        Assert.False(Probe.IsWaiting(whenCanceled));
        cancellation.Cancel();
        Assert.Equal(0, record.Resumed);
    }

    [Fact]
    public void Stop_ParkedOnATokenThatIsNeverCanceled_EndsIt()
    {
        var whenCanceled = Event.WhenCanceled(CancellationToken.None);
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [whenCanceled], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.IsWaiting(whenCanceled), "a token never canceled");
    }

    [Fact]
    public void Stop_RunningThread_EndsAtItsNextYield()
    {
        var running = 0;
        var stopped = 0;
        var after = 0;
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(Body, record), "victim");

        WaitUntil(() => Volatile.Read(ref running) == 1, "the victim runs");
        Assert.True(victim.Stop(StopReason));
        Volatile.Write(ref stopped, 1);
        AssertStopped(victim, record);
        Assert.Equal(0, Volatile.Read(ref after));

        IEnumerable<Event> Body()
        {
            Volatile.Write(ref running, 1);
            while (Volatile.Read(ref stopped) == 0)
            {
                // Computing without yielding: nothing can interrupt this.
            }

            yield return Event.Yield;
            Volatile.Write(ref after, 1);
        }
    }

    [Fact]
    public void Stop_RunningThread_WhoseNextReceiveParks_EndsThere()
    {
        var inbox = new Mailbox<int>("inbox") { OutlivesReceiver = true };
        var running = 0;
        var stopped = 0;
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(Body, record), "victim");

        WaitUntil(() => Volatile.Read(ref running) == 1, "the victim runs");
        Assert.True(victim.Stop(StopReason));
        Volatile.Write(ref stopped, 1);
        AssertStopped(victim, record);
        inbox.Send(1);
        Assert.Equal(1, inbox.Count);

        IEnumerable<Event> Body()
        {
            Volatile.Write(ref running, 1);
            while (Volatile.Read(ref stopped) == 0)
            {
            }

            yield return inbox.Recv();
        }
    }

    [Fact]
    public void Stop_RunningThread_WhoseNextReceiveCompletesAtOnce_GetsThatMessage_AndEndsAtTheYieldAfter()
    {
        var inbox = new Mailbox<int>("inbox") { OutlivesReceiver = true };
        inbox.Send(1);
        inbox.Send(2);
        var received = new List<int>();
        var running = 0;
        var stopped = 0;
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(Body, record), "victim");

        WaitUntil(() => Volatile.Read(ref running) == 1, "the victim runs");
        Assert.True(victim.Stop(StopReason));
        Volatile.Write(ref stopped, 1);
        AssertStopped(victim, record);

        // The first receive had taken its message when the stop was seen: the body got it. The second never started.
        Assert.Equal([1], received);
        Assert.Equal(1, inbox.Count);

        IEnumerable<Event> Body()
        {
            Volatile.Write(ref running, 1);
            while (Volatile.Read(ref stopped) == 0)
            {
            }

            var receive = inbox.Recv();
            while (true)
            {
                yield return receive;
                received.Add(receive.Value);
            }
        }
    }

    [Fact]
    public void Stop_ByTheThreadItself_EndsItAtItsNextYield()
    {
        var after = 0;
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(Body, record), "victim");

        AssertStopped(victim, record, "self");
        Assert.Equal(0, Volatile.Read(ref after));

        IEnumerable<Event> Body()
        {
            var self = GreenThread.Current!;
            Assert.True(self.Stop("self"));
            Assert.False(self.Stop("again"));
            Assert.Equal(ThreadOutcome.Running, self.Outcome);
            yield return Event.Yield;
            Volatile.Write(ref after, 1);
        }
    }

    [Fact]
    public void Stop_ByAnotherGreenThread_EndsTheParkedThread()
    {
        var inbox = new Mailbox<int>("inbox");
        var go = new Mailbox<int>("go");
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [inbox.Recv()], record), "victim");
        var stopper = Scheduler.Spawn(Stopper(), "stopper");

        WaitUntil(() => inbox.IsReceiverParked, "the victim parks");
        go.Send(1);
        Join(stopper);
        AssertStopped(victim, record, "by a green thread");

        IEnumerable<Event> Stopper()
        {
            yield return go.Recv();
            Assert.True(victim.Stop("by a green thread"));
            yield return victim.Ended;
            Assert.Equal(ThreadOutcome.Canceled, victim.Outcome);
        }
    }

    [Fact]
    public void Stop_BeforeTheFirstTurn_TheBodyNeverStarts_OnOneWorker()
    {
        var started = 0;
        var record = new StopRecord();
        var spawner = Scheduler.Spawn(Spawner(), "spawner");
        Join(spawner);

        // A body that started ran its finally block once; one that never started has none to run.
        Assert.Equal(Volatile.Read(ref started), Volatile.Read(ref record.Finallies));
        if (WorkerCount == 1)
        {
            // The only worker runs the spawner until it parks: the victim was still queued when it was stopped.
            Assert.Equal(0, Volatile.Read(ref started));
        }

        IEnumerable<Event> Spawner()
        {
            var victim = GreenThread.Current!.Scheduler.Spawn(Guarded(Body, record), "victim");
            Assert.True(victim.Stop(StopReason));
            yield return victim.Ended;
            Assert.Equal(ThreadOutcome.Canceled, victim.Outcome);
            Assert.Equal(StopReason, Assert.IsType<GreenThreadStoppedException>(victim.Exception).Reason);
        }

        IEnumerable<Event> Body()
        {
            Volatile.Write(ref started, 1);
            yield return new Mailbox<int>("never").Recv();
        }
    }

    [Fact]
    public void Stop_EndedThread_ReturnsFalse_AndChangesNothing()
    {
        var thread = Run(Empty(), "ended");
        Assert.False(thread.Stop(StopReason));
        Assert.Equal(ThreadOutcome.Completed, thread.Outcome);
        Assert.Null(thread.Exception);

        static IEnumerable<Event> Empty()
        {
            yield break;
        }
    }

    [Fact]
    public void Stop_Twice_TheFirstReasonWins()
    {
        var inbox = new Mailbox<int>("inbox");
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [inbox.Recv()], record), "victim");
        WaitUntil(() => inbox.IsReceiverParked, "the victim parks");

        Assert.True(victim.Stop("first"));
        Assert.False(victim.Stop("second"));
        AssertStopped(victim, record, "first");
        Assert.False(victim.Stop("third"));
        Assert.Contains("first", victim.Exception!.Message, StringComparison.Ordinal);
        Assert.Contains(victim.ToString(), victim.Exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Stop_WithoutAReason_EndsCanceledWithANullReason()
    {
        var inbox = new Mailbox<int>("inbox");
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [inbox.Recv()], record), "victim");
        WaitUntil(() => inbox.IsReceiverParked, "the victim parks");

        Assert.True(victim.Stop());
        AssertStopped(victim, record, reason: null);
        Assert.Equal($"{victim} was stopped.", victim.Exception!.Message);
    }

    [Fact]
    public void Stop_ThenDispose_TheThreadEndsWithTheStop_WhoeverEndsIt()
    {
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var inbox = new Mailbox<int>("inbox");
        var record = new StopRecord();
        var victim = scheduler.Spawn(Guarded(() => [inbox.Recv()], record), "victim");
        WaitUntil(() => inbox.IsReceiverParked, "the victim parks");

        Assert.True(victim.Stop(StopReason));
        scheduler.Dispose();
        Assert.Equal(ThreadOutcome.Canceled, victim.Outcome);
        Assert.Equal(StopReason, Assert.IsType<GreenThreadStoppedException>(victim.Exception).Reason);
        Assert.Equal(1, record.Finallies);
        Assert.False(victim.Stop("after disposal"));
    }

    [Fact]
    public void Stop_AwaitedThroughAsTask_IsCanceled()
    {
        var inbox = new Mailbox<int>("inbox");
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [inbox.Recv()], record), "victim");
        WaitUntil(() => inbox.IsReceiverParked, "the victim parks");
        var task = victim.AsTask();

        Assert.True(victim.Stop(StopReason));
        Assert.True(((IAsyncResult)task).AsyncWaitHandle.WaitOne(Timeout));
        Assert.True(task.IsCanceled);
        Assert.Equal(1, record.Finallies);
    }

    // Races with the thread's wakers, each a body of RuntimeContract.Stop.Scenarios.cs at a small size; the stress
    // tier runs them larger.
    [Fact]
    public void Stop_RacingASender_EveryMessageIsReceivedByTheThreadOrLeftInTheMailbox() => StopRacingASender(rounds: 200);

    [Fact]
    public void Stop_RacingSendsToASharedMailbox_EveryMessageIsTakenOnce_AndNoWakeUpIsLost() => StopRacingSendsToASharedMailbox(rounds: 50);

    [Fact]
    public void Stop_RacingACreditRelease_TheWindowKeepsExactlyItsCredits() => StopRacingACreditRelease(rounds: 200);

    [Fact]
    public void Stop_RacingAReceiverMakingRoom_EveryPutIsReceivedOnce_OrNeverSent() => StopRacingAReceiverMakingRoom(rounds: 50);

    [Fact]
    public void Stop_RacingTheTokensCancellation_EndsTheThreadCanceled_EitherWay() => StopRacingTheTokensCancellation(rounds: 200);

    /// <summary>What a guarded body records: whether its wait returned, and its <c>finally</c> block.</summary>
    private static IEnumerable<Event> Guarded(Func<IEnumerable<Event>> waits, StopRecord record)
    {
        try
        {
            foreach (var wait in waits())
            {
                yield return wait;
            }

            Interlocked.Increment(ref record.Resumed);
        }
        finally
        {
            record.FinallyThread = Environment.CurrentManagedThreadId;
            Interlocked.Increment(ref record.Finallies);
        }
    }

    private static IEnumerable<Event> TakeOne<T>(Mailbox<T> inbox, Action<T> taken)
    {
        var receive = inbox.Recv();
        yield return receive;
        taken(receive.Value);
    }

    private static IEnumerable<Event> TakeShared(SharedMailbox<int> shared, Action<int> taken)
    {
        var receive = shared.CreateReceiveEvent();
        yield return receive;
        taken(receive.Value);
    }

    private static IEnumerable<Event> AwaitResult(TaskEvent<int> wait, Task<int> task, Action<int> result)
    {
        yield return wait.For(task);
        result(wait.Result);
    }

    private static IEnumerable<Event> Offer(PullSource<int> source, int items)
    {
        for (var i = 0; i < items; i++)
        {
            yield return source.Offer(i);
        }
    }

    private static IEnumerable<Event> Consume(Puller<int> puller, List<int> items, int batches)
    {
        for (var b = 0; b < batches; b++)
        {
            yield return puller.Next();
            items.AddRange(puller.Batch);
        }
    }

    /// <summary>
    /// Waits for the victim to park, parks two joiners on it (one through <see cref="GreenThread.Ended"/>, one
    /// through <see cref="GreenThread.Exited"/>), stops it, and checks the end: canceled with the reason, its finally
    /// block run once on a worker of <paramref name="scheduler"/>, its wait never resumed, and both joiners told.
    /// </summary>
    private static void StopWhileParked(Scheduler scheduler, GreenThread victim, StopRecord record, Func<bool> parked, string what)
    {
        WaitUntil(parked, $"{victim} parks on {what}");
        var seen = new JoinRecord();
        var watcher = scheduler.Spawn(WatchEnded(victim, seen), "watcher");
        var joiner = scheduler.Spawn(JoinExited(victim), "joiner");
        WaitUntil(() => Probe.JoinerCount(victim) == 2, $"both joiners park on {victim}");
        Assert.True(parked(), $"{victim} stopped waiting on {what} before the stop");

        Assert.True(victim.Stop(StopReason));
        Assert.False(victim.Stop("a second reason"));
        AssertStopped(victim, record);
        Assert.Contains(Probe.WorkerThreadIds(scheduler), id => id == record.FinallyThread);

        Join(watcher);
        Assert.Equal(ThreadOutcome.Canceled, seen.Outcome);
        Assert.Same(victim.Exception, seen.Exception);
        var rethrown = Assert.Throws<GreenThreadStoppedException>(() => joiner.Wait(Timeout));
        Assert.Same(victim.Exception, rethrown);
        Assert.Equal(ThreadOutcome.Canceled, joiner.Outcome);
    }

    /// <summary>Waits for a stopped thread and checks that it ended canceled with <paramref name="reason"/>, its body's wait never returning and its finally block run once.</summary>
    private static void AssertStopped(GreenThread victim, StopRecord record, string? reason = StopReason)
    {
        Assert.Throws<GreenThreadStoppedException>(() => victim.Wait(Timeout));
        Assert.Equal(ThreadOutcome.Canceled, victim.Outcome);
        var stopped = Assert.IsType<GreenThreadStoppedException>(victim.Exception);
        Assert.Equal(reason, stopped.Reason);
        Assert.Equal(0, Volatile.Read(ref record.Resumed));
        Assert.Equal(1, Volatile.Read(ref record.Finallies));
    }

    private static IEnumerable<Event> WatchEnded(GreenThread victim, JoinRecord seen)
    {
        yield return victim.Ended;
        seen.Outcome = victim.Outcome;
        seen.Exception = victim.Exception;
    }

    private static IEnumerable<Event> JoinExited(GreenThread victim)
    {
        yield return victim.Exited;
    }

    /// <summary>A stopped bounded mailbox put left the mailbox as it was: the first message alone, and its room free again once taken.</summary>
    private void AssertStoppedPutLeftRoom(Mailbox<int> bounded)
    {
        Assert.Equal(1, bounded.Count);
        var taken = new List<int>();
        var receiver = Scheduler.Spawn(Take(2), "receiver");
        WaitUntil(() => bounded.IsReceiverParked, "the receiver has taken the first message and parks");
        Assert.True(bounded.TrySend(3));
        Join(receiver);
        Assert.Equal([1, 3], taken);

        IEnumerable<Event> Take(int count)
        {
            var receive = bounded.Recv();
            for (var i = 0; i < count; i++)
            {
                yield return receive;
                taken.Add(receive.Value);
            }
        }
    }

    /// <summary>What a stopped thread's body did.</summary>
    private sealed class StopRecord
    {
        /// <summary>How many times the body went on after its wait.</summary>
        public int Resumed;

        /// <summary>How many times its finally block ran.</summary>
        public int Finallies;

        /// <summary>The managed id of the OS thread that ran the finally block.</summary>
        public int FinallyThread;
    }

    /// <summary>What a joiner saw when the thread it joined ended.</summary>
    private sealed class JoinRecord
    {
        public ThreadOutcome Outcome { get; set; }

        public Exception? Exception { get; set; }
    }
}
