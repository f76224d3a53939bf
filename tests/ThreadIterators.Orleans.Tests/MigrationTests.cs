using System;
using System.Collections.Concurrent;
using System.Linq;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans.Tests;

/// <summary>A process moved to another silo by Orleans while messages are in flight: nothing is duplicated, nothing lost unseen.</summary>
[Collection(nameof(SharedCluster))]
public sealed class MigrationTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AProcessMovedWithMessagesInFlight_TakesEachAtMostOnce_InOrder_AndTheRestAreDeadLetters()
    {
        const int Count = 20_000;
        const int After = 1_000;
        var name = $"count/{Guid.NewGuid():N}";
        var record = ClusterFixture.Counted.GetOrAdd(name, _ => new CountedProcess());
        var dead = new ConcurrentQueue<long>();
        void OnDeadLetter(object? sender, DeadLetterEventArgs args)
        {
            if (args.Message is long value && value >= 0)
            {
                dead.Enqueue(value);
            }
        }

        fixture.First.Scheduler.DeadLetter += OnDeadLetter;
        fixture.Second.Scheduler.DeadLetter += OnDeadLetter;
        try
        {
            // Started on the first silo by its first message, then moved to the second while the stream goes on.
            var target = fixture.First.Get<long>(name);
            target.Send(0);
            await LifetimeTests.WaitUntil(() => record.Messages.Count == 1);
            Task? move = null;
            for (long i = 1; i < Count; i++)
            {
                target.Send(i);
                if (i == Count / 4)
                {
                    var grain = fixture.Cluster.Client.GetGrain<IProcessGrain>(name);
                    move = fixture.Cluster.MigrateAsync(grain, fixture.Cluster.Silos[1].SiloAddress);
                }
            }

            await move!.WaitAsync(Generous);

            // Sent after the move: taken by the process started again on the second silo.
            for (long i = Count; i < Count + After; i++)
            {
                target.Send(i);
            }

            await LifetimeTests.WaitUntil(() => record.Messages.Count + dead.Count >= Count + After && fixture.First.Node().LinkIsIdle(name));
        }
        finally
        {
            fixture.First.Scheduler.DeadLetter -= OnDeadLetter;
            fixture.Second.Scheduler.DeadLetter -= OnDeadLetter;
        }

        var taken = record.Messages.ToArray();
        Assert.Equal(taken.Length, taken.Distinct().Count());
        Assert.True(taken.Zip(taken.Skip(1)).All(pair => pair.First < pair.Second), "Messages were taken out of order.");
        Assert.Empty(taken.Intersect(dead));
        Assert.Equal(Count + After, taken.Length + dead.Count);
        Assert.Equal(2, record.Starts.Count);
        Assert.Contains(Count + After - 1, taken);
    }
}
