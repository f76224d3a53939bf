using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Orleans.Configuration;
using Orleans.Hosting;
using Orleans.TestingHost;

namespace ThreadIterators.Orleans.Tests;

/// <summary>
/// A real cluster of two silos on loopback TCP in this process (Orleans' TestingHost), each with a ThreadIterators
/// scheduler and the test kinds of process registered; shared by the tests of <see cref="SharedCluster"/>.
/// </summary>
public sealed class ClusterFixture : IAsyncLifetime
{
    /// <summary>What the processes of the "count" kind saw: per name, the silo's scheduler and the messages, in order.</summary>
    public static ConcurrentDictionary<string, CountedProcess> Counted { get; } = new();

    /// <summary>The largest message body the cluster carries: small, so that a test can send one too large.</summary>
    public const int MaxMessageBytes = 1_000_000;

    /// <summary>The silos' put window (ThreadIteratorsClusterOptions.PutWindow).</summary>
    public const int PutWindow = 16;

    public InProcessTestCluster Cluster { get; private set; } = null!;

    public ClusterProcesses First => Processes(0);

    public ClusterProcesses Second => Processes(1);

    /// <summary>Gets the processes as the cluster's client (an Orleans client, outside the silos) reaches them.</summary>
    public ClusterProcesses Client => Cluster.Client.ServiceProvider.GetRequiredService<ClusterProcesses>();

    public ClusterProcesses Processes(int silo) => Cluster.Silos[silo].ServiceProvider.GetRequiredService<ClusterProcesses>();

    public async Task InitializeAsync()
    {
        var builder = new InProcessTestClusterBuilder(2);
        builder.ConfigureSilo((_, silo) => silo.Configure<SiloMessagingOptions>(messaging => messaging.MaxMessageBodySize = MaxMessageBytes).AddThreadIterators(options =>
        {
            options.Scheduler = new SchedulerOptions { WorkerCount = 2 };

            // The link sweep test sweeps by hand.
            options.LinkSweepPeriod = Timeout.InfiniteTimeSpan;

            // Small, so that the put tests see a producer park after a few messages.
            options.PutWindow = PutWindow;

            // Short, so that a batch that finds a bounded inbox full soon comes back with the rest pending, and is sent again.
            options.RoomPatience = TimeSpan.FromMilliseconds(20);
            options.AddProcess<long>("count", Count);
            options.AddProcess<DoubleRequest>("double", Doubler);
            options.AddProcess<long>("fragile", Fragile);
        }));
        // The cluster's client (outside the silos) sends, asks and monitors through ThreadIterators too.
        builder.ConfigureClient(client => client.AddThreadIterators(options =>
        {
            options.Scheduler = new SchedulerOptions { WorkerCount = 1 };
            options.PutWindow = PutWindow;
        }));
        Cluster = builder.Build();
        await Cluster.DeployAsync();
    }

    public async Task DisposeAsync() => await Cluster.DisposeAsync();

    /// <summary>A process of the "double" kind: answers each request with twice its number, and fails a negative one.</summary>
    public static IEnumerable<Event> Doubler(string name, Mailbox<DoubleRequest> inbox)
    {
        while (true)
        {
            yield return inbox.Recv();
            var request = inbox.Recv().Value;
            if (request.Value < 0)
            {
                request.Reply.Fail(new ArgumentOutOfRangeException(nameof(inbox), "negative numbers are not doubled"));
            }
            else
            {
                request.Reply.Reply(request.Value * 2);
            }
        }
    }

    /// <summary>A process of the "count" kind: records every message it receives, in order, until it receives -1.</summary>
    /// <summary>A process that records where it started, and throws at a negative number.</summary>
    private static IEnumerable<Event> Fragile(string name, Mailbox<long> inbox)
    {
        Counted.GetOrAdd(name, _ => new CountedProcess()).Starts.Add(GreenThread.Current!.Scheduler);
        while (true)
        {
            yield return inbox.Recv();
            if (inbox.Recv().Value < 0)
            {
                throw new InvalidOperationException($"{name} was told to crash");
            }
        }
    }

    private static IEnumerable<Event> Count(string name, Mailbox<long> inbox)
    {
        var record = Counted.GetOrAdd(name, _ => new CountedProcess());
        record.Starts.Add(GreenThread.Current!.Scheduler);
        while (true)
        {
            yield return inbox.Recv();
            var message = inbox.Recv().Value;
            if (message == -1)
            {
                record.Ended.TrySetResult();
                yield break;
            }

            record.Messages.Enqueue(message);
        }
    }
}

/// <summary>What one process of the "count" kind saw.</summary>
public sealed class CountedProcess
{
    public ConcurrentBag<Scheduler> Starts { get; } = [];

    public ConcurrentQueue<long> Messages { get; } = new();

    public TaskCompletionSource Ended { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);
}

[CollectionDefinition(nameof(SharedCluster))]
public sealed class SharedCluster : ICollectionFixture<ClusterFixture>;
