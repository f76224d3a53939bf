using System;
using System.Collections.Generic;
using System.Linq;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void Registry_BurstsOfShortThreads_DropsTheEndedOnesAndStillFindsTheParked()
    {
        // The registry's logs do not take a thread out when it ends (ThreadLog): they drop ended threads when full or
        // when their worker goes idle. So after bursts of short threads what they hold must come back to about the
        // threads still live, or every thread ever spawned would stay reachable.
        const int parkedCount = 50;
        const int bursts = 3;
        const int burstSize = 5_000;
        var gates = Enumerable.Range(0, parkedCount).Select(_ => new Mailbox<int>()).ToArray();
        var parked = new List<GreenThread>();
        var ended = new List<GreenThread>();
        var released = 0;
        Run(Spawner(), "spawner");

        // Every worker goes idle once only the parked threads are left, and an idle worker drops its log's ended
        // threads once the log holds more than its minimum capacity (64) and more than twice the live threads. So each
        // log (one per worker and one for spawns from outside) ends at most that large, while a log that kept what a
        // burst left (up to burstSize) fails this.
        var bound = (WorkerCount + 1) * Math.Max(64, 2 * parkedCount);
        WaitUntil(() => Scheduler.RegistryHeldCount <= bound, $"the registry holds at most {bound} threads (holds {Scheduler.RegistryHeldCount})");

        Assert.All(parked, thread => Assert.Same(thread, Scheduler.FindLive(thread.Id)));
        Assert.All(ended.Take(100), thread => Assert.Null(Scheduler.FindLive(thread.Id)));

        foreach (var gate in gates)
        {
            gate.Send(1);
        }

        WaitForAll();
        Assert.Equal(parkedCount, released);

        IEnumerable<Event> Spawner()
        {
            for (var i = 0; i < parkedCount; i++)
            {
                parked.Add(Scheduler.Spawn(Parked(gates[i])));
            }

            for (var burst = 0; burst < bursts; burst++)
            {
                var threads = Enumerable.Range(0, burstSize).Select(_ => Scheduler.Spawn(Short())).ToList();
                foreach (var thread in threads)
                {
                    yield return thread.Exited;
                }

                ended.AddRange(threads);
            }
        }

        IEnumerable<Event> Parked(Mailbox<int> gate)
        {
            var message = gate.Recv();
            yield return message;
            System.Threading.Interlocked.Increment(ref released);
        }

        static IEnumerable<Event> Short()
        {
            yield break;
        }
    }
}
