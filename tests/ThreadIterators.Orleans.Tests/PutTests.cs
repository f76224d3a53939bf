using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans.Tests;

/// <summary>Puts to a process with back-pressure: a producer parks while its messages are on their way or the inbox is full.</summary>
[Collection(nameof(SharedCluster))]
public sealed class PutTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Theory]
    [InlineData("other silo")]
    [InlineData("same silo")]
    [InlineData("client")]
    public async Task APutToAProcessWithABoundedInbox_ParksTheProducer_WhileTheProcessTakesNothing_ThenEveryMessageArrivesOnceInOrder(string producerOn)
    {
        const int Capacity = 4;
        const int Count = 2_000;
        var name = $"bounded/{Guid.NewGuid():N}";
        var gate = new Mailbox<bool>();
        var received = new List<int>();
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Mailbox<int>? inboxSeen = null;
        IEnumerable<Event> Consumer(Mailbox<int> inbox)
        {
            inboxSeen = inbox;
            yield return gate.Recv();
            while (received.Count < Count)
            {
                yield return inbox.Recv();
                received.Add(inbox.Recv().Value);
            }

            done.TrySetResult();
        }

        await fixture.Second.SpawnAsync<int>(name, Capacity, Consumer);
        var producers = producerOn switch { "other silo" => fixture.First, "same silo" => fixture.Second, _ => fixture.Client };
        var target = producers.Get<int>(name);
        var produced = 0;
        IEnumerable<Event> Producer()
        {
            for (var i = 0; i < Count; i++)
            {
                yield return target.Put(i);
                Volatile.Write(ref produced, i + 1);
            }
        }

        var pendingBefore = producers.Node().PendingReceipts;
        var producer = producers.Scheduler.Spawn(Producer(), "producer");
        ThreadWait? wait = null;
        await LifetimeTests.WaitUntil(() =>
        {
            wait = producers.Scheduler.GetWaitGraph().Find(producer);
            return wait?.Description.Contains($"puts to process {name}", StringComparison.Ordinal) == true;
        });

        // A batch waited in the activation for room, came back with its rest pending, and was sent again.
        await LifetimeTests.WaitUntil(() => producers.Node().PendingReceipts > pendingBefore);

        // Parked with the inbox full and the window's messages on their way: no more than both, whichever silo it is on.
        var parkedAt = Volatile.Read(ref produced);
        Assert.InRange(parkedAt, ClusterFixture.PutWindow, Capacity + ClusterFixture.PutWindow);
        Assert.Equal(Capacity, inboxSeen!.Count);

        gate.Send(true);
        await done.Task.WaitAsync(Generous);
        await producer.AsTask().WaitAsync(Generous);
        Assert.Equal(Enumerable.Range(0, Count), received);
        Assert.Equal(Count, Volatile.Read(ref produced));
    }

    [Fact]
    public async Task PutsAndSends_FromSeveralGreenThreadsOfOneSilo_ReachAnUnboundedProcessOnAnother_EachOnce_InEachThreadsOrder()
    {
        const int Threads = 3;
        const int PerThread = 20_000;
        var name = $"count/{Guid.NewGuid():N}";
        var target = fixture.First.Get<long>(name);
        var threads = new List<GreenThread>();
        for (var t = 0; t < Threads; t++)
        {
            var first = t * 1_000_000L;
            IEnumerable<Event> Mixed()
            {
                for (var i = 0; i < PerThread; i++)
                {
                    if (i % 3 == 0)
                    {
                        target.Send(first + i);
                    }
                    else
                    {
                        yield return target.Put(first + i);
                    }
                }
            }

            threads.Add(fixture.First.Scheduler.Spawn(Mixed(), $"producer {t}"));
        }

        foreach (var thread in threads)
        {
            await thread.AsTask().WaitAsync(Generous);
        }

        var record = ClusterFixture.Counted.GetOrAdd(name, _ => new CountedProcess());
        await LifetimeTests.WaitUntil(() => record.Messages.Count >= Threads * PerThread);
        var messages = record.Messages.ToArray();
        Assert.Equal(Threads * PerThread, messages.Length);
        for (var t = 0; t < Threads; t++)
        {
            var first = t * 1_000_000L;
            Assert.Equal(Enumerable.Range(0, PerThread).Select(i => first + i), messages.Where(m => m / 1_000_000 == t));
        }

        target.Send(-1);
    }

    [Fact]
    public async Task PutsWaitingForRoom_InAProcessThatEnds_AreEachADeadLetter_AndTheProducerGoesOn()
    {
        const int Capacity = 2;
        const int Count = 200;
        var name = $"bounded/{Guid.NewGuid():N}";
        var gate = new Mailbox<bool>();
        Mailbox<int>? inboxSeen = null;
        IEnumerable<Event> Quitter(Mailbox<int> inbox)
        {
            // Takes nothing, and ends when told.
            inboxSeen = inbox;
            yield return gate.Recv();
        }

        // Every message is counted once: left in the ended process's inbox, refused by it (both where it ran), or
        // undeliverable on the producer's silo once no process holds the name (the kind "bounded" is not registered).
        var whereItRan = new ConcurrentQueue<int>();
        var onProducers = new ConcurrentQueue<int>();
        void OnSecond(object? sender, DeadLetterEventArgs e)
        {
            if (ReferenceEquals(e.Mailbox, inboxSeen) && e.Message is int m)
            {
                whereItRan.Enqueue(m);
            }
        }

        var target = fixture.First.Get<int>(name);
        void OnFirst(object? sender, DeadLetterEventArgs e)
        {
            if (e.Mailbox is ProcessRef<int> to && to.Equals(target) && e.Message is int m)
            {
                onProducers.Enqueue(m);
            }
        }

        fixture.Second.Scheduler.DeadLetter += OnSecond;
        fixture.First.Scheduler.DeadLetter += OnFirst;
        try
        {
            await fixture.Second.SpawnAsync<int>(name, Capacity, Quitter);
            IEnumerable<Event> Producer()
            {
                for (var i = 0; i < Count; i++)
                {
                    yield return target.Put(i);
                }
            }

            var producer = fixture.First.Scheduler.Spawn(Producer(), "producer");
            await LifetimeTests.WaitUntil(() =>
                fixture.First.Scheduler.GetWaitGraph().Find(producer)?.Description.Contains($"puts to process {name}", StringComparison.Ordinal) == true
                && inboxSeen?.Count == Capacity);

            gate.Send(true);
            await producer.AsTask().WaitAsync(Generous);
            await LifetimeTests.WaitUntil(() => whereItRan.Count + onProducers.Count >= Count);
            var all = whereItRan.Concat(onProducers).Order().ToArray();
            Assert.Equal(Enumerable.Range(0, Count), all);
            Assert.True(whereItRan.Count >= Capacity, $"{whereItRan.Count} dead letters where the process ran");
        }
        finally
        {
            fixture.Second.Scheduler.DeadLetter -= OnSecond;
            fixture.First.Scheduler.DeadLetter -= OnFirst;
        }
    }

    [Fact]
    public void APutOutsideAGreenThread_Throws_NamingTheProcess()
    {
        var target = fixture.First.Get<int>("bounded/anyone");
        var error = Assert.Throws<InvalidOperationException>(() => target.Put(1));
        Assert.Contains("process \"bounded/anyone\"", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ACapacityBelowOne_IsRefused_NamingIt()
    {
        var error = await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => fixture.First.SpawnAsync<int>("bounded/none", 0, inbox => []));
        Assert.Equal("capacity", error.ParamName);
    }
}
