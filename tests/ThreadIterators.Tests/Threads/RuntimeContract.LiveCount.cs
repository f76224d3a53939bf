using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

// The live count: workers hold part of it as credit (Worker.TakeLiveCredit), and hand it back when idle, so the
// scheduler's count reaches zero exactly when the last thread has ended.
public abstract partial class RuntimeContract
{
    [Fact]
    public void LiveThreadCount_CountsThreadsSpawnedOnWorkers_ExactlyWhileTheyWait_AndZeroOnceTheyEnd()
    {
        // More children than a worker's credit batch, spawned by green threads on every worker.
        const int Parents = 3;
        const int Children = Worker.LiveBatch * 2 + 7;
        var release = Enumerable.Range(0, Parents * Children).Select(i => new Mailbox<int>($"release {i}")).ToArray();
        var parked = 0;
        var parents = Enumerable.Range(0, Parents).Select(p => Scheduler.Spawn(SpawnChildren(p), $"parent {p}")).ToList();
        parents.ForEach(Join);
        WaitUntil(() => Volatile.Read(ref parked) == Parents * Children && release.All(m => m.IsReceiverParked), "every child parks");

        Assert.Equal(Parents * Children, Scheduler.LiveThreadCount);

        foreach (var mailbox in release)
        {
            mailbox.Send(0);
        }

        WaitForAll();
        Assert.Equal(0, Scheduler.LiveThreadCount);

        IEnumerable<Event> SpawnChildren(int parent)
        {
            for (var i = 0; i < Children; i++)
            {
                Scheduler.Spawn(Child(release[parent * Children + i]));
                if (i % 50 == 0)
                {
                    yield return Event.Yield;
                }
            }
        }

        IEnumerable<Event> Child(Mailbox<int> inbox)
        {
            Interlocked.Increment(ref parked);
            yield return inbox.Recv();
        }
    }

    [Fact]
    public void WaitForAll_ReturnsOnceThreadsThatSpawnAndEndOnEveryWorker_HaveAllEnded()
    {
        // Threads spawned on one worker end on another: credit moves between workers and the count, and the count
        // must reach zero once, after the last end, not before.
        var ended = 0;
        for (var round = 0; round < 20; round++)
        {
            Scheduler.Spawn(Tree(4));
            WaitForAll();
            Assert.Equal((round + 1) * 341, Volatile.Read(ref ended)); // 1 + 4 + 16 + 64 + 256 threads a round
            Assert.Equal(0, Scheduler.LiveThreadCount);
        }

        IEnumerable<Event> Tree(int depth)
        {
            var answers = new Mailbox<int>();
            if (depth > 0)
            {
                for (var i = 0; i < 4; i++)
                {
                    Scheduler.Spawn(Leaf(depth - 1, answers));
                }

                var answer = answers.Recv();
                for (var i = 0; i < 4; i++)
                {
                    yield return answer;
                }
            }

            Interlocked.Increment(ref ended);
        }

        IEnumerable<Event> Leaf(int depth, Mailbox<int> parent)
        {
            foreach (var step in Tree(depth))
            {
                yield return step;
            }

            parent.Send(1);
        }
    }
}
