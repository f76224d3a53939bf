using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators.Orleans;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;

/// <summary>
/// Green threads on Orleans: processes named across the cluster, messages sent through <see cref="ProcessRef{T}"/>,
/// node-down heard through <see cref="ProcessRef{T}.Monitor"/>.
/// </summary>
internal sealed class GreenContender(OrleansPair pair) : Contender("green threads on Orleans")
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(5);
    private readonly Mailbox<StreamJob> _streamJobs = new();
    private TaskCompletionSource? _lapsDone;
    private ProcessRef<long>? _streamer;

    public override string Version => $"ThreadIterators {OrleansPair.PackageVersion(typeof(Scheduler))} on {OrleansPair.Version}";

    public override string Settings => OrleansPair.Settings;

    public override IEnumerable<Process> Nodes => [pair.Second];

    private ClusterProcesses Processes => pair.First.Processes;

    public override async Task StartAsync()
    {
        await pair.StartAsync().ConfigureAwait(false);

        // The streamer is spawned once, here, so that no stream's figure counts a spawn: its claim of a new name and
        // the activation of its grain.
        _streamer = await Processes.SpawnAsync<long>($"streamer/{Guid.NewGuid():N}", Streamer).ConfigureAwait(false);

        // The even forwarders of each ring live here; the second node holds the odd ones.
        foreach (var size in pair.RingSizes)
        {
            for (var i = 0; i < size; i += 2)
            {
                var next = Processes.Get<long>(BenchSilo.RingName(size, i + 1));
                Action? done = i == 0 ? () => _lapsDone?.TrySetResult() : null;
                await Processes.SpawnAsync<long>(BenchSilo.RingName(size, i), inbox => BenchSilo.Forwarder(inbox, next, done)).ConfigureAwait(false);
            }
        }
    }

    public override async Task<double[]> PingPongAsync(int count)
    {
        var rtts = new double[count];
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var echo = Processes.Get<Ping>("echo");
        ProcessRef<long>? self = null;
        IEnumerable<Event> Pinger(Mailbox<long> inbox)
        {
            var next = inbox.Recv();
            yield return next;
            for (var i = 0; i < count; i++)
            {
                var start = Stopwatch.GetTimestamp();
                echo.Send(new Ping(i, self!));
                yield return next;
                rtts[i] = Stopwatch.GetElapsedTime(start).TotalMicroseconds;
            }

            done.TrySetResult();
        }

        self = await Processes.SpawnAsync<long>($"pinger/{Guid.NewGuid():N}", Pinger).ConfigureAwait(false);
        self.Send(-1);
        await done.Task.WaitAsync(Patience).ConfigureAwait(false);
        return rtts;
    }

    public override async Task StreamAsync(int count, int window)
    {
        var job = new StreamJob(count, window, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
        _streamJobs.Send(job);
        await job.Done.Task.WaitAsync(Patience).ConfigureAwait(false);
    }

    /// <summary>The streamer: runs each stream it is given, to the sink on the second node, acknowledged to its own inbox.</summary>
    private IEnumerable<Event> Streamer(Mailbox<long> inbox)
    {
        var jobs = _streamJobs.Recv();
        var next = inbox.Recv();
        var sink = Processes.Get<StreamItem>("sink");
        while (true)
        {
            yield return jobs;
            var (count, window, done) = jobs.Value;
            for (var i = 0; i < count; i++)
            {
                var ack = i % window == window - 1 || i == count - 1;
                sink.Send(new StreamItem(i, ack ? _streamer : null));
                if (ack)
                {
                    yield return next;
                    if (next.Value != i + 1)
                    {
                        done.TrySetException(new InvalidOperationException($"The sink took {next.Value} messages in order where {i + 1} were sent (-1: one was lost, repeated or out of order)."));
                        yield break;
                    }
                }
            }

            done.TrySetResult();
        }
    }

    public override async Task<TimeSpan> RingAsync(int size, int laps)
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _lapsDone = done;
        var start = Stopwatch.GetTimestamp();
        Processes.Get<long>(BenchSilo.RingName(size, 0)).Send((long)size * laps);
        await done.Task.WaitAsync(Patience).ConfigureAwait(false);
        return Stopwatch.GetElapsedTime(start);
    }

    public override async Task<TimeSpan> NodeDownAsync(int watchers)
    {
        var name = $"victim/{Guid.NewGuid():N}";
        var (victim, _) = await pair.StartVictimAsync(name).ConfigureAwait(false);
        try
        {
            var heard = 0;
            var repeated = 0;
            var all = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var target = Processes.Get<int>(name);
            var monitors = new ProcessMonitor[watchers];
            IEnumerable<Event> Watcher(Mailbox<ProcessDown> downs)
            {
                var down = downs.Recv();
                yield return down;
                if (down.Value.Reason != ProcessExitReason.NodeDown)
                {
                    all.TrySetException(new InvalidOperationException($"A watcher heard {down.Value}, not that the node went down."));
                }

                if (Interlocked.Increment(ref heard) == watchers)
                {
                    all.TrySetResult();
                }

                yield return down;
                Interlocked.Increment(ref repeated);
            }

            for (var i = 0; i < watchers; i++)
            {
                var downs = new Mailbox<ProcessDown>();
                Processes.Scheduler.Spawn(Watcher(downs), "watcher");
                monitors[i] = target.Monitor(downs);
            }

            // Each monitor is in place on the victim's silo before the kill.
            var deadline = Stopwatch.StartNew();
            while (monitors.Any(m => !m.HasFired && Processes.Node.Monitors.HostOf(m) is null))
            {
                if (deadline.Elapsed > Patience)
                {
                    throw new TimeoutException("The watchers' monitors were not in place after 5 minutes.");
                }

                await Task.Delay(10).ConfigureAwait(false);
            }

            if (monitors.Any(m => m.HasFired))
            {
                throw new InvalidOperationException("A monitor fired before the node was killed.");
            }

            var start = Stopwatch.GetTimestamp();
            victim.Kill();
            await all.Task.WaitAsync(Patience).ConfigureAwait(false);
            var elapsed = Stopwatch.GetElapsedTime(start);
            if (Volatile.Read(ref repeated) != 0)
            {
                throw new InvalidOperationException($"{repeated} watchers heard of the node's end twice.");
            }

            return elapsed;
        }
        finally
        {
            NodeProcess.Stop(victim);
        }
    }

    public override ValueTask DisposeAsync() => pair.DisposeAsync();

    private sealed record StreamJob(int Count, int Window, TaskCompletionSource Done);
}
