using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans.Tests;

/// <summary>The wait-for graph of a silo names a wait on a process of another silo, not the thread that forwarded it.</summary>
[Collection(nameof(SharedCluster))]
public sealed class WaitGraphTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AnAskOfAProcessOnAnotherSilo_IsNamedInTheAskersWaitGraph_WithItsSilo_AndNoLocalThreadToWaitOn()
    {
        var name = $"silent/{Guid.NewGuid():N}";
        var kept = new List<DoubleRequest>();
        IEnumerable<Event> Silent(Mailbox<DoubleRequest> inbox)
        {
            // Keeps every ask unanswered; ends at a request of -1.
            while (true)
            {
                yield return inbox.Recv();
                if (inbox.Recv().Value.Value == -1)
                {
                    yield break;
                }

                kept.Add(inbox.Recv().Value);
            }
        }

        await fixture.Second.SpawnAsync<DoubleRequest>(name, Silent);
        var target = fixture.First.Get<DoubleRequest>(name);
        var ended = new TaskCompletionSource<Exception?>(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Asker()
        {
            var ask = target.Ask<long>(reply => new DoubleRequest(1, reply), TimeSpan.FromMinutes(10));
            try
            {
                yield return ask;
            }
            finally
            {
                ended.TrySetResult(ask.Exception);
            }
        }

        var asker = fixture.First.Scheduler.Spawn(Asker(), "remote asker");
        var silo = fixture.Cluster.Silos[1].SiloAddress.ToString();
        ThreadWait? wait = null;
        await LifetimeTests.WaitUntil(() =>
        {
            wait = fixture.First.Scheduler.GetWaitGraph().Find(asker);
            return wait?.Description.Contains($"on silo {silo}", StringComparison.Ordinal) == true;
        });

        Assert.Contains($"process \"{name}\" on silo {silo}", wait!.Description, StringComparison.Ordinal);
        Assert.Empty(wait.WaitsOn);
        Assert.True(wait.EndsFromOutside, wait.ToString());

        Assert.True(asker.Stop());
        await ended.Task.WaitAsync(Generous);

        // The silent process ends: the stopped asker's ask, kept for its process, goes with it.
        await fixture.First.Get<DoubleRequest>(name).AskAsync<long>(reply => new DoubleRequest(-1, reply), Generous)
            .ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(Generous);
        await LifetimeTests.WaitUntil(() => fixture.First.Node().Asks.Count == 0);
    }
}
