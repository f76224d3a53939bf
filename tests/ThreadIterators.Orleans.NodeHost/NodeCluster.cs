using System;
using System.Collections.Generic;
using Orleans.Configuration;
using Orleans.Hosting;

namespace ThreadIterators.Orleans.NodeHost;

/// <summary>What the test's primary silo and the node process share: the service id, the membership timing, the kinds.</summary>
public static class NodeCluster
{
    public const string ServiceId = "threaditerators-tests";

    public const string Ready = "ready";

    /// <summary>The name of the process the node spawns on itself once it has joined.</summary>
    public const string Resident = "resident";

    /// <summary>The name of a process on the node that takes asks and never answers them.</summary>
    public const string Silent = "silent";

    /// <summary>
    /// Failure detection as fast as a loopback test allows: a probe a second, a silo declared dead after two missed
    /// probes and one vote (there are two silos).
    /// </summary>
    public static void ConfigureMembership(ISiloBuilder silo) => silo.Configure<ClusterMembershipOptions>(options =>
    {
        options.ProbeTimeout = TimeSpan.FromSeconds(1);
        options.NumMissedProbesLimit = 2;
        options.NumVotesForDeathDeclaration = 1;
        options.NumProbedSilos = 1;
    });

    /// <summary>A body that waits for ever, until it is stopped.</summary>
    public static IEnumerable<Event> WaitsForEver()
    {
        yield return Event.Never;
    }

    /// <summary>A process that takes asks and keeps them, unanswered, until it ends.</summary>
    public static IEnumerable<Event> KeepsAsks(Mailbox<SilentRequest> inbox)
    {
        var kept = new List<SilentRequest>();
        while (true)
        {
            yield return inbox.Recv();
            kept.Add(inbox.Recv().Value);
        }
    }

    /// <summary>A process that ends when told: 0 returns, anything else throws.</summary>
    public static IEnumerable<Event> EndsAsTold(Mailbox<int> inbox)
    {
        yield return inbox.Recv();
        if (inbox.Recv().Value != 0)
        {
            throw new InvalidOperationException("told to fail");
        }
    }
}
