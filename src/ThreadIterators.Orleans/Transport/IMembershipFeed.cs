using System.Threading.Tasks;
using Orleans;
using Orleans.Concurrency;

namespace ThreadIterators.Orleans;

/// <summary>
/// A silo's view of the cluster's membership, for an Orleans client, which is no member and reads none of its own
/// (<see cref="ClientMembershipWatch"/>).
/// </summary>
[Alias("ThreadIterators.Orleans.IMembershipFeed")]
internal interface IMembershipFeed : IGrainWithIntegerKey
{
    /// <summary>
    /// Answers the silos declared dead as soon as the silo's view is newer than <paramref name="afterVersion"/>, or,
    /// after a while with no change, as it stands: a long poll.
    /// </summary>
    [Alias("Next")]
    [ResponseTimeout("00:01:00")]
    Task<MembershipNews> Next(long afterVersion);
}
