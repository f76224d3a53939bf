using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Orleans;
using Orleans.Runtime;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;

/// <summary>
/// Raw Orleans grain calls: the best a user gets from Orleans alone. It has no monitors: its node-down watchers
/// read the cluster's membership, the signal Orleans gives, until the killed silo is declared dead.
/// </summary>
internal sealed class RawOrleansContender(OrleansPair pair) : Contender("raw Orleans")
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(5);

    public override string Version => OrleansPair.Version;

    public override string Settings => $"{OrleansPair.Settings}; its grains registered in Orleans' distributed grain directory, as the green processes are (BenchSilo.RawDirectory says why)";

    public override IEnumerable<Process> Nodes => [pair.Second];

    private IEchoGrain Echo => pair.First.Grains.GetGrain<IEchoGrain>("echo");

    public override async Task StartAsync()
    {
        await pair.StartAsync().ConfigureAwait(false);

        // Each grain must be where the workload says: a grain activated on the first node too (Orleans' directory is
        // eventually consistent while a silo joins) would make its calls local, and the figures wrong.
        var here = pair.First.Address;
        await CheckEchoAsync().ConfigureAwait(false);

        foreach (var size in pair.RingSizes)
        {
            for (var i = 0; i < size; i++)
            {
                var where = await pair.First.Grains.GetGrain<IRingGrain>(RingGrain.Key(size, i)).Place().ConfigureAwait(false);
                if ((where == here) != (i % 2 == 0))
                {
                    throw new InvalidOperationException($"Ring grain {RingGrain.Key(size, i)} runs on {where}, not on the {(i % 2 == 0 ? "first" : "second")} node.");
                }
            }
        }
    }

    public override async Task<double[]> PingPongAsync(int count)
    {
        await CheckEchoAsync().ConfigureAwait(false);
        var rtts = new double[count];
        var grain = Echo;
        for (var i = 0; i < count; i++)
        {
            var start = Stopwatch.GetTimestamp();
            await grain.Ping(i).ConfigureAwait(false);
            rtts[i] = Stopwatch.GetElapsedTime(start).TotalMicroseconds;
        }

        return rtts;
    }

    public override async Task StreamAsync(int count, int window)
    {
        // Orleans does not order calls in flight together, so only loss and repetition are checked: every call is
        // awaited, and the grain counts what it took.
        var grain = Echo;
        await CheckEchoAsync().ConfigureAwait(false);
        await grain.TakeCount().ConfigureAwait(false);
        var inFlight = new List<Task>(window);
        for (var i = 0; i < count; i++)
        {
            inFlight.Add(grain.Push(i));
            if (inFlight.Count == window || i == count - 1)
            {
                await Task.WhenAll(inFlight).ConfigureAwait(false);
                inFlight.Clear();
            }
        }

        var taken = await grain.TakeCount().ConfigureAwait(false);
        if (taken != count)
        {
            throw new InvalidOperationException($"The grain took {taken} messages where {count} were sent.");
        }
    }

    /// <summary>
    /// Throws if the echo grain runs on the first node: checked before each workload, since a grain made again after a
    /// silo's death (its directory entry lost) would be made on its caller's node, and measure local calls.
    /// </summary>
    private async Task CheckEchoAsync()
    {
        if (await Echo.Where().ConfigureAwait(false) == pair.First.Address)
        {
            throw new InvalidOperationException("The echo grain runs on the first node, not the second: its calls would be local.");
        }
    }

    public override async Task<TimeSpan> RingAsync(int size, int laps)
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        RingGrain.Done = done;
        var start = Stopwatch.GetTimestamp();
        await pair.First.Grains.GetGrain<IRingGrain>(RingGrain.Key(size, 0)).Forward((long)size * laps).ConfigureAwait(false);
        await done.Task.WaitAsync(Patience).ConfigureAwait(false);
        return Stopwatch.GetElapsedTime(start);
    }

    public override async Task<TimeSpan> NodeDownAsync(int watchers)
    {
        var (victim, siloPort) = await pair.StartVictimAsync($"victim/{Guid.NewGuid():N}").ConfigureAwait(false);
        try
        {
            var membership = pair.First.Membership;
            var silo = membership.CurrentSnapshot.Members.Values
                .Where(m => m.SiloAddress.Endpoint.Port == siloPort && m.Status == SiloStatus.Active)
                .Select(m => m.SiloAddress)
                .FirstOrDefault()
                ?? throw new InvalidOperationException("The killed node is not an active member of the cluster.");
            var heard = 0;
            using var stop = new CancellationTokenSource();
            var all = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var listening = 0;
            var allListening = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            async Task Watch()
            {
                var first = true;
                await foreach (var snapshot in membership.MembershipUpdates.WithCancellation(stop.Token).ConfigureAwait(false))
                {
                    if (first)
                    {
                        first = false;
                        if (Interlocked.Increment(ref listening) == watchers)
                        {
                            allListening.TrySetResult();
                        }
                    }

                    if (snapshot.GetSiloStatus(silo) == SiloStatus.Dead)
                    {
                        if (Interlocked.Increment(ref heard) == watchers)
                        {
                            all.TrySetResult();
                        }

                        return;
                    }
                }
            }

            var watches = Enumerable.Range(0, watchers).Select(_ => Task.Run(Watch)).ToList();
            await allListening.Task.WaitAsync(Patience).ConfigureAwait(false);

            var start = Stopwatch.GetTimestamp();
            victim.Kill();
            await all.Task.WaitAsync(Patience).ConfigureAwait(false);
            var elapsed = Stopwatch.GetElapsedTime(start);
            await stop.CancelAsync().ConfigureAwait(false);
            await Task.WhenAll(watches).ConfigureAwait(false);
            return elapsed;
        }
        finally
        {
            NodeProcess.Stop(victim);
        }
    }

    public override ValueTask DisposeAsync() => pair.DisposeAsync();
}
