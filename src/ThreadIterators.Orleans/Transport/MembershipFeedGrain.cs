using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Orleans;
using Orleans.Concurrency;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>
/// Answers a client's long poll of the membership from the silo it is activated on: a stateless worker, so one serves
/// each gateway's clients locally, and reentrant, so that waiting polls hold no turn.
/// </summary>
[StatelessWorker(1)]
[Reentrant]
[GrainType("threaditerators-membership-feed")]
internal sealed class MembershipFeedGrain(IClusterMembershipService membership, ProcessNode node) : Grain, IMembershipFeed
{
    /// <summary>How long a poll waits for a change before it answers the view as it stands: well within its response timeout.</summary>
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(20);

    public async Task<MembershipNews> Next(long afterVersion)
    {
        var current = membership.CurrentSnapshot;
        if (current.Version.Value > afterVersion)
        {
            return News(current);
        }

        // Ended too as the silo stops, so that a waiting poll does not hold this activation's deactivation.
        using var patience = CancellationTokenSource.CreateLinkedTokenSource(node.StoppingToken);
        patience.CancelAfter(Patience);
        try
        {
            await foreach (var snapshot in membership.MembershipUpdates.WithCancellation(patience.Token).ConfigureAwait(true))
            {
                if (snapshot.Version.Value > afterVersion)
                {
                    return News(snapshot);
                }
            }
        }
        catch (OperationCanceledException) when (patience.IsCancellationRequested)
        {
            // No change for a while: the view as it stands, and the client polls again.
        }

        return News(membership.CurrentSnapshot);
    }

    private static MembershipNews News(ClusterMembershipSnapshot snapshot) => new()
    {
        Version = snapshot.Version.Value,
        Dead = [.. snapshot.Members.Values.Where(member => member.Status == SiloStatus.Dead).Select(member => member.SiloAddress)],
    };
}
