using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void Current_InsideBodies_IsTheSpawnedHandle_AcrossParksYieldsAndWorkers()
    {
        // A ring of threads passing tokens, each yielding between hops, and an OS thread feeding it: threads park,
        // are woken from other OS threads, give up turns and, with several workers, move between them. Each
        // forwarder starts with a token in its inbox and forwards as many messages as its neighbour sends it, so
        // each ends with one token left over.
        const int threads = 8;
        const int hops = 2_000;
        var inboxes = Enumerable.Range(0, threads).Select(i => new Mailbox<int>($"ring {i}")).ToArray();
        var handles = Enumerable.Range(0, threads).Select(_ => new Mailbox<GreenThread>()).ToArray();
        var mismatches = 0;
        var checks = 0;
        var ring = new List<GreenThread>();
        for (var i = 0; i < threads; i++)
        {
            ring.Add(Scheduler.Spawn(Forward(i), $"forwarder {i}"));
            handles[i].Send(ring[i]);
        }

        for (var i = 0; i < threads; i++)
        {
            inboxes[i].Send(i);
        }

        ring.ForEach(Join);
        Assert.Equal(0, mismatches);
        Assert.Equal(threads * ((2 * hops) + 1), checks);

        IEnumerable<Event> Forward(int index)
        {
            var self = handles[index].Recv();
            yield return self;
            Check(self.Value);
            var message = inboxes[index].Recv();
            for (var hop = 0; hop < hops; hop++)
            {
                yield return message;
                Check(self.Value);
                yield return Event.Yield;
                Check(self.Value);
                inboxes[(index + 1) % threads].Send(message.Value);
            }
        }

        void Check(GreenThread self)
        {
            Interlocked.Increment(ref checks);
            if (!ReferenceEquals(GreenThread.Current, self))
            {
                Interlocked.Increment(ref mismatches);
            }
        }
    }

    [Fact]
    public void Current_ManyLiveThreads_SpawnedOnWorkersAndOutside_EachFindsItself()
    {
        // Ids come in blocks to workers and one at a time to other OS threads, and the running thread is looked up
        // by id among every live one: each of thousands of parked threads, woken with its own handle, must find
        // itself, also after half of them have ended.
        const int perSpawner = 3_000;
        var inboxes = new List<Mailbox<GreenThread>>();
        var threads = new List<GreenThread>();
        var mismatches = 0;
        for (var i = 0; i < perSpawner; i++)
        {
            var inbox = new Mailbox<GreenThread>();
            inboxes.Add(inbox);
            threads.Add(Scheduler.Spawn(CheckSelf(inbox)));
        }

        var spawned = new Mailbox<(Mailbox<GreenThread> Inbox, GreenThread Thread)>();
        var spawner = Run(SpawnMany(), "spawner");
        var fromWorkers = new List<(Mailbox<GreenThread> Inbox, GreenThread Thread)>();
        Run(Collect(), "collector");
        inboxes.AddRange(fromWorkers.Select(c => c.Inbox));
        threads.AddRange(fromWorkers.Select(c => c.Thread));
        WaitUntil(() => inboxes.All(m => m.IsReceiverParked), "every thread parks");

        // Wake the odd ones, then (once they have ended) the even ones.
        for (var pass = 1; pass >= 0; pass--)
        {
            for (var i = pass; i < threads.Count; i += 2)
            {
                inboxes[i].Send(threads[i]);
            }

            for (var i = pass; i < threads.Count; i += 2)
            {
                Join(threads[i]);
            }
        }

        Assert.Equal(0, mismatches);
        Assert.Equal(ThreadOutcome.Completed, spawner.Outcome);

        IEnumerable<Event> CheckSelf(Mailbox<GreenThread> inbox)
        {
            var self = inbox.Recv();
            yield return self;
            if (!ReferenceEquals(GreenThread.Current, self.Value))
            {
                Interlocked.Increment(ref mismatches);
            }
        }

        IEnumerable<Event> SpawnMany()
        {
            for (var i = 0; i < perSpawner; i++)
            {
                var inbox = new Mailbox<GreenThread>();
                spawned.Send((inbox, GreenThread.Current!.Scheduler.Spawn(CheckSelf(inbox))));
                if (i % 100 == 0)
                {
                    yield return Event.Yield;
                }
            }
        }

        IEnumerable<Event> Collect()
        {
            var child = spawned.Recv();
            for (var i = 0; i < perSpawner; i++)
            {
                yield return child;
                fromWorkers.Add(child.Value);
            }
        }
    }

    [Fact]
    public void Current_InHelperCalledFromBody_AndInChildSpawnedThere_IsEachOwnThread()
    {
        GreenThread? parentSeen = null;
        GreenThread? parentAfterSpawn = null;
        GreenThread? childSeen = null;
        GreenThread? child = null;
        var parent = Run(Parent(), "parent");
        Assert.Same(parent, parentSeen);
        Assert.Same(parent, parentAfterSpawn);
        Assert.NotNull(child);
        Assert.Same(child, childSeen);
        Assert.Same(parent.Scheduler, Scheduler);

        IEnumerable<Event> Parent()
        {
            parentSeen = WhoAmI();
            child = GreenThread.Current!.Scheduler.Spawn(Child(), "child");
            parentAfterSpawn = WhoAmI();
            yield return child.Exited;
        }

        IEnumerable<Event> Child()
        {
            yield return Event.Yield;
            childSeen = WhoAmI();
        }

        static GreenThread? WhoAmI() => GreenThread.Current;
    }

    [Fact]
    public async Task Current_OutsideGreenThreads_IsNull()
    {
        // The test's own thread, also after it has sent (which gives an OS thread a context), a new OS thread, the
        // thread pool, a timer's callback, and a continuation of a green thread's task.
        var inbox = new Mailbox<int>();
        Assert.Null(GreenThread.Current);
        inbox.Send(1);
        Assert.Null(GreenThread.Current);

        GreenThread? onOsThread = null;
        var osThread = new Thread(() => onOsThread = GreenThread.Current);
        osThread.Start();
        Assert.True(osThread.Join(Timeout));
        Assert.Null(onOsThread);

        Assert.Null(await Task.Run(() => GreenThread.Current).WaitAsync(Timeout));

        var fromTimer = new TaskCompletionSource<GreenThread?>(TaskCreationOptions.RunContinuationsAsynchronously);
        using (new Timer(_ => fromTimer.TrySetResult(GreenThread.Current), null, 0, System.Threading.Timeout.Infinite))
        {
            Assert.Null(await fromTimer.Task.WaitAsync(Timeout));
        }

        var receiver = Scheduler.Spawn(Receive(inbox, 1, []), "receiver");
        Assert.Null(await receiver.AsTask().ContinueWith(_ => GreenThread.Current, TaskScheduler.Default).WaitAsync(Timeout));
    }

    [Fact]
    public void Current_InFinallyBlockRunByDisposal_IsTheDisposedThread()
    {
        var inbox = new Mailbox<int>("never sent to");
        GreenThread? seen = null;
        var thread = Scheduler.Spawn(ParkInsideTry(), "parked");
        WaitUntil(() => inbox.IsReceiverParked, "the thread parks");
        Scheduler.Dispose();
        Assert.Same(thread, seen);
        Assert.Null(GreenThread.Current);

        IEnumerable<Event> ParkInsideTry()
        {
            try
            {
                yield return inbox.Recv();
            }
            finally
            {
                seen = GreenThread.Current;
            }
        }
    }

    [Fact]
    public void Current_DisposalRunFromAnotherSchedulersGreenThread_IsTheDisposedThreadThenTheDisposerAgain()
    {
        // The disposing OS thread is a worker of another scheduler, running a green thread of its own: inside the
        // disposed thread's finally block Current is that thread, and back in the disposer it is the disposer.
        var inbox = new Mailbox<int>("never sent to");
        GreenThread? inFinally = null;
        GreenThread? disposerBefore = null;
        GreenThread? disposerAfter = null;
        var parked = Scheduler.Spawn(ParkInsideTry(), "parked");
        WaitUntil(() => inbox.IsReceiverParked, "the thread parks");

        using var other = new Scheduler(1);
        var disposer = other.Spawn(DisposeTheFirst(), "disposer");
        Assert.True(disposer.Wait(Timeout));
        Assert.Same(parked, inFinally);
        Assert.Same(disposer, disposerBefore);
        Assert.Same(disposer, disposerAfter);

        IEnumerable<Event> ParkInsideTry()
        {
            try
            {
                yield return inbox.Recv();
            }
            finally
            {
                inFinally = GreenThread.Current;
            }
        }

        IEnumerable<Event> DisposeTheFirst()
        {
            disposerBefore = GreenThread.Current;
            Scheduler.Dispose();
            disposerAfter = GreenThread.Current;
            yield break;
        }
    }
}
