using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>The spawn deque hands every thread out exactly once, its owner newest first and thieves oldest first, under any race.</summary>
public sealed class SpawnDequeTests
{
    [Fact]
    public void Owner_TakesNewestFirst_Thief_TakesOldestFirst_AndAFullDequeRefuses()
    {
        var threads = Handles(SpawnDeque.Capacity + 1);
        var deque = new SpawnDeque();
        foreach (var thread in threads.Take(SpawnDeque.Capacity))
        {
            Assert.True(deque.TryPush(thread));
        }

        Assert.False(deque.TryPush(threads[^1]));
        Assert.Same(threads[0], deque.TrySteal());
        Assert.Same(threads[SpawnDeque.Capacity - 1], deque.TryPop());
        Assert.True(deque.TryPush(threads[^1]));
        Assert.Same(threads[^1], deque.TryPop());
        Assert.Equal(SpawnDeque.Capacity - 2, deque.Count);
    }

    [Fact]
    public void OwnerAndTwoThieves_EveryThreadTakenExactlyOnce()
    {
        // The owner pushes and pops in bursts while two thieves steal; the last thread of a burst is where the owner
        // and a thief race. Every handle must come out once: none lost, none twice.
        const int Total = 200_000;
        var threads = Handles(1_000);
        var taken = new int[Total];
        var deque = new SpawnDeque();

        // Each push uses a handle standing for one sequence number; a handle is reused only once its number came out.
        var inFlight = new int[threads.Length];
        var pushed = 0;
        var done = false;
        var thieves = Enumerable.Range(0, 2).Select(_ => new Thread(() =>
        {
            while (!Volatile.Read(ref done) || deque.Count > 0)
            {
                if (deque.TrySteal() is { } thread)
                {
                    Record(thread);
                }
            }
        })).ToList();

        thieves.ForEach(t => t.Start());
        var random = new Random(17);
        while (pushed < Total)
        {
            var burst = random.Next(1, 8);
            for (var i = 0; i < burst && pushed < Total; i++)
            {
                var index = FreeHandle();
                Volatile.Write(ref inFlight[index], pushed + 1);
                if (!deque.TryPush(threads[index]))
                {
                    Volatile.Write(ref inFlight[index], 0);
                    break;
                }

                pushed++;
            }

            for (var i = random.Next(0, burst + 1); i > 0; i--)
            {
                if (deque.TryPop() is { } thread)
                {
                    Record(thread);
                }
            }
        }

        Volatile.Write(ref done, true);
        while (deque.TryPop() is { } left)
        {
            Record(left);
        }

        thieves.ForEach(t => Assert.True(t.Join(TimeSpan.FromMinutes(1)), "a thief did not finish"));
        Assert.All(Enumerable.Range(0, Total), n => Assert.Equal(1, taken[n]));

        int FreeHandle()
        {
            while (true)
            {
                for (var i = 0; i < threads.Length; i++)
                {
                    if (Volatile.Read(ref inFlight[i]) == 0)
                    {
                        return i;
                    }
                }

                Thread.Yield();
            }
        }

        void Record(GreenThread thread)
        {
            var index = Array.IndexOf(threads, thread);
            var number = Interlocked.Exchange(ref inFlight[index], 0) - 1;
            Assert.True(number >= 0, $"{thread} came out of the deque without being in it");
            Interlocked.Increment(ref taken[number]);
        }
    }

    /// <summary>Distinct thread handles: ended threads of a scheduler of their own, used only as identities.</summary>
    private static GreenThread[] Handles(int count)
    {
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = 1 });
        var handles = Enumerable.Range(0, count).Select(_ => scheduler.Spawn(Nothing())).ToArray();
        scheduler.WaitForAll();
        return handles;

        static IEnumerable<Event> Nothing()
        {
            yield break;
        }
    }
}
