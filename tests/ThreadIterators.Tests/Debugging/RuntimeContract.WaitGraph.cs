using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    private sealed record WaitGraphRequest(ReplyTo<int> Reply);

    /// <summary>A request its server forwards elsewhere, as a package that carries asks to other machines does.</summary>
    private sealed record ForwardedRequest(ReplyTo<int> Reply) : IForwardedRequest
    {
        public string Destination => "process \"far\" on node 2";
    }

    [Fact]
    public void WaitGraph_AnAskWhoseRequestIsForwarded_NamesItsDestination_AndWaitsOnNoThreadHere()
    {
        var inbox = new Mailbox<ForwardedRequest>("forwarder inbox");
        var forwarded = new Mailbox<ForwardedRequest>("elsewhere");
        var forwarder = Scheduler.Spawn(Forward(), "forwarder");
        Exception? failure = null;
        var asker = Scheduler.Spawn(Ask(), "asker");

        ThreadWait? Entry() => Scheduler.GetWaitGraph().Find(asker);
        WaitUntil(() => Entry()?.Description.StartsWith("a reply", StringComparison.Ordinal) == true && forwarded.Count == 1, "the asker waits, and its request was forwarded");
        var wait = Entry()!;
        Assert.Contains("asking process \"far\" on node 2 (through Mailbox<ForwardedRequest> 'forwarder inbox')", wait.Description, StringComparison.Ordinal);
        Assert.Empty(wait.WaitsOn);
        Assert.True(wait.EndsFromOutside, wait.ToString());
        Assert.True(wait.EndsByTimer, wait.ToString());

        // Stopped while it waits: the abandoned ask's error names the destination too.
        Assert.True(asker.Stop());
        WaitUntil(() => Volatile.Read(ref failure) is not null, "the stopped asker's ask has its error");
        Assert.Contains("process \"far\" on node 2", failure!.Message, StringComparison.Ordinal);
        StopAll([forwarder]);

        IEnumerable<Event> Forward()
        {
            while (true)
            {
                yield return inbox.Recv();
                forwarded.Send(inbox.Recv().Value);
            }
        }

        IEnumerable<Event> Ask()
        {
            var ask = inbox.Ask((ReplyTo<int> reply) => new ForwardedRequest(reply), TimeSpan.FromMinutes(10));
            try
            {
                yield return ask;
            }
            finally
            {
                Volatile.Write(ref failure, ask.Exception);
            }
        }
    }

    [Fact]
    public void WaitGraph_TwoThreadsJoiningEachOtherInChoices_ReportsTheCycleAndWhatEachWaitsFor()
    {
        var handles = new GreenThread?[2];
        var started = new Mailbox<int>("started");
        handles[0] = Scheduler.Spawn(JoinOther(1), "left");
        handles[1] = Scheduler.Spawn(JoinOther(0), "right");
        started.Send(0);

        var graph = WaitForCycles(1);
        var cycle = Assert.Single(graph.Cycles);
        Assert.Equal([handles[0]!, handles[1]!], cycle);
        Assert.Equal([handles[1]!], graph.Find(handles[0]!)!.WaitsOn);
        Assert.Equal($"one of: [the end of {handles[1]} (joined, however it ends)]", graph.Find(handles[0]!)!.Description);
        Assert.Contains($"Deadlock, a cycle of waits: {handles[0]} -> {handles[1]} -> {handles[0]}", graph.ToString(), StringComparison.Ordinal);
        StopAll(handles.Select(h => h!));

        IEnumerable<Event> JoinOther(int other)
        {
            // The first waits for a message, so both handles are set before either joins.
            if (other == 1)
            {
                yield return started.Recv();
            }
            else
            {
                yield return Event.Yield;
            }

            while (handles[other] is null)
            {
                yield return Event.Yield;
            }

            // In a choice: a plain join that closes a cycle fails at once (JoinCycles), a choice's join is not followed.
            yield return new Choice(handles[other]!.Ended);
        }
    }

    [Fact]
    public void WaitGraph_ServersAskingEachOtherInARing_ReportsTheWholeRingAsOneCycle()
    {
        // Each of three servers, told to go, asks the next one and waits for its reply; the next one is doing the
        // same, so no request is ever received: a deadlock through asks, the dining philosophers' shape.
        const int servers = 3;
        var inboxes = Enumerable.Range(0, servers).Select(i => new Mailbox<object>($"server {i}")).ToArray();
        var threads = Enumerable.Range(0, servers).Select(i => Scheduler.Spawn(Server(i), $"server {i}")).ToArray();
        foreach (var inbox in inboxes)
        {
            inbox.Send("go");
        }

        var graph = WaitForCycles(1);
        Assert.Equal(threads, Assert.Single(graph.Cycles));
        for (var i = 0; i < servers; i++)
        {
            var wait = graph.Find(threads[i])!;
            Assert.Equal([threads[(i + 1) % servers]], wait.WaitsOn);
            Assert.StartsWith($"a reply: {threads[i]} asking Mailbox<Object> 'server {(i + 1) % servers}'", wait.Description, StringComparison.Ordinal);
            Assert.False(wait.EndsByTimer);
        }

        StopAll(threads);

        IEnumerable<Event> Server(int index)
        {
            yield return inboxes[index].Recv();
            var ask = inboxes[(index + 1) % servers].Ask((ReplyTo<int> reply) => new WaitGraphRequest(reply), System.Threading.Timeout.InfiniteTimeSpan);
            yield return ask;
        }
    }

    [Fact]
    public void WaitGraph_TwoThreadsPuttingIntoEachOthersFullMailbox_ReportsTheCycleThroughTheirReceivers()
    {
        // Outliving their receivers, so stopping one thread does not fail the other's put before its own stop.
        var boxes = new[] { new Mailbox<int>(1, "box a") { OutlivesReceiver = true }, new Mailbox<int>(1, "box b") { OutlivesReceiver = true } };
        // Each box holds its thread's first message before either thread runs, so the other's puts find it full.
        Assert.True(boxes[0].TrySend(0));
        Assert.True(boxes[1].TrySend(0));
        var threads = new[] { Scheduler.Spawn(Putter(0), "a"), Scheduler.Spawn(Putter(1), "b") };

        var graph = WaitForCycles(1);
        Assert.Equal(threads, Assert.Single(graph.Cycles));
        Assert.Equal($"room in Mailbox<Int32> 'box b', drained by {threads[1]}", graph.Find(threads[0])!.Description);

        StopAll(threads);

        IEnumerable<Event> Putter(int index)
        {
            // Receive from its own box (so it is the box's receiver), then fill the other's and wait for room in it.
            var mine = boxes[index].Recv();
            yield return mine;
            var other = boxes[1 - index];
            yield return other.Put(1);
            yield return other.Put(2);
            yield return mine;
        }
    }

    [Fact]
    public void WaitGraph_AReceiveASleepATaskAndAChoice_SayWhatEndsEachWithNoCycle()
    {
        var inbox = new Mailbox<int>("inbox");
        var never = new TaskCompletionSource();
        var receiver = Scheduler.Spawn(Receive(), "receiver");
        var sleeper = Scheduler.Spawn(Sleep(), "sleeper");
        var tasker = Scheduler.Spawn(AwaitTask(), "tasker");
        var chooser = Scheduler.Spawn(Choose(), "chooser");

        ThreadWait? Entry(GreenThread thread) => Scheduler.GetWaitGraph().Find(thread);
        WaitUntil(() => Entry(receiver)?.Description.StartsWith("a message", StringComparison.Ordinal) == true && Entry(sleeper)?.EndsByTimer == true && Entry(tasker)?.EndsFromOutside == true && Entry(chooser)?.Description.StartsWith("one of", StringComparison.Ordinal) == true, "every thread has parked");

        var graph = Scheduler.GetWaitGraph();
        Assert.Empty(graph.Cycles);
        Assert.Contains("no cycle of waits", graph.ToString(), StringComparison.Ordinal);
        Assert.Equal("a message on Mailbox<Int32> 'inbox' (0 queued)", graph.Find(receiver)!.Description);
        Assert.Empty(graph.Find(receiver)!.WaitsOn);
        Assert.Equal($"a sleep of {TimeSpan.FromDays(1)} to pass", graph.Find(sleeper)!.Description);
        Assert.StartsWith("a task to complete, outside the scheduler", graph.Find(tasker)!.Description, StringComparison.Ordinal);
        var choice = graph.Find(chooser)!;
        Assert.Equal($"one of: [the end of {receiver} (joined)]; [a sleep of {TimeSpan.FromDays(2)} to pass]", choice.Description);
        Assert.Equal([receiver], choice.WaitsOn);
        Assert.True(choice.EndsByTimer);

        never.SetResult();
        inbox.Send(1);
        StopAll([sleeper, chooser]);

        IEnumerable<Event> Receive()
        {
            yield return inbox.Recv();
        }

        IEnumerable<Event> Sleep()
        {
            yield return Event.Sleep(TimeSpan.FromDays(1));
        }

        IEnumerable<Event> AwaitTask()
        {
            yield return never.Task.AsEvent();
        }

        IEnumerable<Event> Choose()
        {
            yield return new Choice(receiver.Exited, Event.Sleep(TimeSpan.FromDays(2)));
        }
    }

    [Fact]
    public void WaitGraph_ARingOfTenThousandJoinsInChoices_FindsTheOneCycleThroughEveryThread()
    {
        // Deep enough that a recursive search would overflow the stack.
        const int count = 10_000;
        var handles = new GreenThread?[count];
        var go = new Mailbox<int>("go");
        for (var i = 0; i < count; i++)
        {
            handles[i] = Scheduler.Spawn(Join((i + 1) % count, i == 0));
        }

        go.Send(0);
        var graph = WaitForCycles(1);
        var cycle = Assert.Single(graph.Cycles);
        Assert.Equal(handles.Select(h => h!), cycle);
        Assert.True(graph.ToString().Split('\n').Length > count, "every thread of the cycle is listed");
        StopAll(handles.Select(h => h!));

        IEnumerable<Event> Join(int next, bool first)
        {
            if (first)
            {
                yield return go.Recv();
            }

            while (handles[next] is null)
            {
                yield return Event.Yield;
            }

            yield return new Choice(handles[next]!.Ended);
        }
    }

    [Fact]
    public void WaitForAllOrThrow_Deadlocked_ThrowsAWaitTimeoutExceptionThatNamesTheCycle()
    {
        var handles = new GreenThread?[2];
        var go = new Mailbox<int>("go");
        handles[0] = Scheduler.Spawn(JoinOther(1, first: true), "first");
        handles[1] = Scheduler.Spawn(JoinOther(0, first: false), "second");
        go.Send(0);
        WaitForCycles(1);

        var all = Assert.Throws<WaitTimeoutException>(() => Scheduler.WaitForAllOrThrow(TimeSpan.Zero));
        Assert.Single(all.Waits.Cycles);
        Assert.Contains($"Deadlock, a cycle of waits: {handles[0]} -> {handles[1]} -> {handles[0]}", all.Message, StringComparison.Ordinal);
        Assert.IsAssignableFrom<TimeoutException>(all);

        var one = Assert.Throws<WaitTimeoutException>(() => handles[0]!.WaitOrThrow(TimeSpan.Zero));
        Assert.StartsWith($"{handles[0]} had not ended after {TimeSpan.Zero}.", one.Message, StringComparison.Ordinal);
        Assert.True(one.Message.Contains($"{handles[0]}: waits for one of: [the end of {handles[1]}", StringComparison.Ordinal), $"the message does not say what {handles[0]} waits for: {one.Message}");

        StopAll(handles.Select(h => h!));
        Scheduler.WaitForAllOrThrow(Timeout);

        IEnumerable<Event> JoinOther(int other, bool first)
        {
            if (first)
            {
                yield return go.Recv();
            }

            while (handles[other] is null)
            {
                yield return Event.Yield;
            }

            yield return new Choice(handles[other]!.Exited);
        }
    }

    [Fact]
    public void WaitGraph_TakenByALongTurnHandler_ShowsTheBlockerRunningAndTheOthersWaiting()
    {
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, LongTurnThreshold = TimeSpan.FromMilliseconds(20) });
        WaitGraph? graph = null;
        var reported = new ManualResetEventSlim(false);
        scheduler.LongTurn += (_, e) =>
        {
            graph = e.Thread.Scheduler.GetWaitGraph();
            reported.Set();
        };

        var inbox = new Mailbox<int>("idle inbox");
        var waiter = scheduler.Spawn(Wait(), "waiter");
        var blocker = scheduler.Spawn(Block(), "blocker");
        blocker.WaitOrThrow(Timeout);
        inbox.Send(1);
        waiter.WaitOrThrow(Timeout);

        Assert.True(graph!.Find(blocker)!.IsRunning);
        Assert.StartsWith($"{blocker}: running", graph.Find(blocker)!.ToString(), StringComparison.Ordinal);
        var waiting = graph.Find(waiter)!;
        Assert.False(waiting.IsRunning);
        Assert.Equal("a message on Mailbox<Int32> 'idle inbox' (0 queued)", waiting.Description);

        IEnumerable<Event> Wait()
        {
            yield return inbox.Recv();
        }

        IEnumerable<Event> Block()
        {
            // Wait until the other thread has parked, then block the worker until the watchdog has reported it.
            while (!inbox.IsReceiverParked)
            {
                yield return Event.Yield;
            }

#pragma warning disable TI0001 // A turn that blocks its worker is what the watchdog must report.
            Assert.True(reported.Wait(Timeout), "the watchdog never reported a turn that blocked its worker");
#pragma warning restore TI0001
        }
    }

    /// <summary>Waits until the scheduler's wait-for graph shows <paramref name="cycles"/> cycles, and returns it.</summary>
    private WaitGraph WaitForCycles(int cycles)
    {
        WaitGraph? graph = null;
        // And no thread of a cycle still in the turn that parked it: its worker reports it running until the turn's
        // end, a little after the park, and the graph then says "running; last waited for".
        Waiting.Until(
            () => (graph = Scheduler.GetWaitGraph()).Cycles.Count == cycles && !graph.Threads.Any(wait => wait.IsRunning && graph.Cycles.Any(cycle => cycle.Contains(wait.Thread))),
            () => $"the wait-for graph shows {cycles} cycle(s) of threads between turns; last taken:{Environment.NewLine}{graph}");
        return graph!;
    }

    /// <summary>Stops deadlocked threads and waits for their end, so the test leaves nothing behind.</summary>
    private static void StopAll(IEnumerable<GreenThread> threads)
    {
        var list = threads.ToList();
        foreach (var thread in list)
        {
            thread.Stop();
        }

        foreach (var thread in list)
        {
            Waiting.Until(() => thread.IsCompleted, $"{thread} ends after its stop");
        }
    }
}
