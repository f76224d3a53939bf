using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Threading.Tasks;
using Proto;
using Process = System.Diagnostics.Process;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>
/// Proto.Actor with Proto.Remote over gRPC: the first node is an actor system in this process, the second (and the
/// node-down workload's third) a child process running <see cref="ProtoNode"/>, all on 127.0.0.1. Actors on a child
/// are named at its start and addressed as <c>PID(address, name)</c>; messages are protobuf (ProtoMessages.proto).
/// Each workload is driven by an actor on the first node, as a Proto.Actor program would be.
/// </summary>
internal sealed class ProtoContender() : Contender("Proto.Remote")
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(5);

    /// <summary>How long node-down waits for the watchers, from the kill; Proto.Remote's defaults take a second or two.</summary>
    private static readonly TimeSpan NodeDownPatience = TimeSpan.FromMinutes(1);

    /// <summary>How long node-down goes on listening, after the last watcher heard, for one that hears twice.</summary>
    private static readonly TimeSpan EchoWindow = TimeSpan.FromMilliseconds(250);

    private ActorSystem? _system;
    private Process? _node;
    private string? _nodeAddress;
    private string? _heardBy;

    /// <inheritdoc />
    public override string Version => ProtoRemoting.Version;

    /// <summary>
    /// Gets what differs from a plain Proto.Remote setup, for the report: no setting does, but node-down is heard by
    /// <see cref="global::Proto.Remote.EndpointTerminatedEvent"/> as well as by death-watch (see <see cref="WatcherActor"/>).
    /// </summary>
    public override string? Settings =>
        "Proto.Remote defaults (an endpoint gives a lost node up after 3 failed reconnects, backing off 100 ms x try + up to 500 ms at random); "
        + "node-down watchers use context.Watch and also Proto.Remote's EndpointTerminatedEvent, because 1.8.0 does not pass a lost endpoint's AddressTerminated to the watchers"
        + (_heardBy is null ? string.Empty : $" (last run heard by: {_heardBy})");

    /// <inheritdoc />
    public override IEnumerable<Process> Nodes => _node is null ? [] : [_node];

    private ActorSystem System => _system ?? throw new InvalidOperationException("The contender has not started.");

    private string NodeAddress => _nodeAddress ?? throw new InvalidOperationException("The contender has not started.");

    /// <inheritdoc />
    public override async Task StartAsync()
    {
        // The first node takes any free port (its address says which); a child is told its port.
        _system = await ProtoRemoting.StartAsync(0).ConfigureAwait(false);
        var port = ProtoRemoting.FreePort();
        _node = await NodeProcess.StartThisAsync(ProtoNode.Command, port.ToString(CultureInfo.InvariantCulture)).ConfigureAwait(false);
        _nodeAddress = Address(port);
    }

    /// <inheritdoc />
    public override async Task<double[]> PingPongAsync(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        var rtts = new double[count];
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var echo = new PID(NodeAddress, ProtoNode.EchoName);
        var pinger = System.Root.Spawn(Props.FromProducer(() => new PingerActor(echo, rtts, done)));
        await Finish(pinger, done.Task, Patience).ConfigureAwait(false);
        return rtts;
    }

    /// <inheritdoc />
    public override async Task StreamAsync(int count, int window)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(window);
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var sink = new PID(NodeAddress, ProtoNode.SinkName);
        var streamer = System.Root.Spawn(Props.FromProducer(() => new StreamerActor(sink, count, window, done)));
        await Finish(streamer, done.Task, Patience).ConfigureAwait(false);
    }

    /// <inheritdoc />
    public override async Task<TimeSpan> RingAsync(int size, int laps)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(size, 2);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(laps);
        var run = Guid.NewGuid().ToString("N");
        var builder = new PID(NodeAddress, ProtoNode.RingBuilderName);

        // Member i is on the first node when i is even, on the second when odd; names are known up front, so one
        // round trip has the second node spawn its members, each knowing its next.
        await System.Root.RequestAsync<RingBuilt>(builder, new RingBuild { Run = run, Size = size, FirstAddress = System.Address }, Patience).ConfigureAwait(false);
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var local = new List<PID>();
        try
        {
            for (var i = 0; i < size; i += 2)
            {
                var nextIndex = (i + 1) % size;
                var next = new PID(nextIndex % 2 == 0 ? System.Address : NodeAddress, RingMemberActor.Name(run, nextIndex));
                var first = i == 0 ? done : null;
                local.Add(System.Root.SpawnNamed(Props.FromProducer(() => new RingMemberActor(next, first)), RingMemberActor.Name(run, i)));
            }

            // The first member takes the token with size * laps hops to go, and sees it again with none.
            var start = Stopwatch.GetTimestamp();
            System.Root.Send(local[0], new Token { Remaining = (long)size * laps });
            await done.Task.WaitAsync(Patience).ConfigureAwait(false);
            return Stopwatch.GetElapsedTime(start);
        }
        finally
        {
            foreach (var member in local)
            {
                await System.Root.StopAsync(member).ConfigureAwait(false);
            }

            await System.Root.RequestAsync<RingBuilt>(builder, new RingTeardown { Run = run }, Patience).ConfigureAwait(false);
        }
    }

    /// <inheritdoc />
    public override async Task<TimeSpan> NodeDownAsync(int watchers)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(watchers);
        var port = ProtoRemoting.FreePort();
        var victimNode = await NodeProcess.StartThisAsync(ProtoNode.Command, port.ToString(CultureInfo.InvariantCulture)).ConfigureAwait(false);
        var spawned = new List<PID>();
        try
        {
            var victim = new PID(Address(port), ProtoNode.EchoName);

            // A round trip first, so that the connection to the third node is up before anything watches it.
            await System.Root.RequestAsync<Pong>(victim, new Ping { Seq = 0 }, Patience).ConfigureAwait(false);
            var watching = new List<Task>();
            var heard = new List<Task<long>>();
            var actors = new List<WatcherActor>();
            for (var i = 0; i < watchers; i++)
            {
                var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                var terminated = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
                var actor = new WatcherActor(victim, started, terminated);
                actors.Add(actor);
                watching.Add(started.Task);
                heard.Add(terminated.Task);
                spawned.Add(System.Root.Spawn(Props.FromProducer(() => actor)));
            }

            await Task.WhenAll(watching).WaitAsync(Patience).ConfigureAwait(false);

            // Another round trip, behind the watches on the same connection: once it is back, the third node has
            // taken every watch, so that the kill is what the watchers hear of, not a watch that came too late.
            await System.Root.RequestAsync<Pong>(victim, new Ping { Seq = 1 }, Patience).ConfigureAwait(false);

            var killed = Stopwatch.GetTimestamp();
            victimNode.Kill();
            var heardAt = await Task.WhenAll(heard).WaitAsync(NodeDownPatience).ConfigureAwait(false);
            var elapsed = Stopwatch.GetElapsedTime(killed, heardAt.Max());

            await Task.Delay(EchoWindow).ConfigureAwait(false);
            var twice = actors.Count(a => a.Terminations > 1 || a.EndpointLosses > 1);
            if (twice > 0)
            {
                throw new InvalidOperationException($"{twice} of {watchers} watchers heard more than once that the third node's actor is gone.");
            }

            _heardBy = string.Join(", ", actors.GroupBy(a => a.HeardBy).Select(g => string.Create(CultureInfo.InvariantCulture, $"{g.Key} for {g.Count()}")));

            return elapsed;
        }
        finally
        {
            foreach (var watcher in spawned)
            {
                System.Root.Stop(watcher);
            }

            NodeProcess.Stop(victimNode);
        }
    }

    /// <inheritdoc />
    public override async ValueTask DisposeAsync()
    {
        try
        {
            if (_system is { } system)
            {
                _system = null;
                await ProtoRemoting.StopAsync(system).ConfigureAwait(false);
            }
        }
        finally
        {
            if (_node is { } node)
            {
                _node = null;
                NodeProcess.Stop(node);
            }
        }
    }

    private static string Address(int port) => string.Create(CultureInfo.InvariantCulture, $"127.0.0.1:{port}");

    /// <summary>Waits for a driving actor's work, and stops the actor if the work failed or took too long.</summary>
    private async Task Finish(PID driver, Task work, TimeSpan patience)
    {
        try
        {
            await work.WaitAsync(patience).ConfigureAwait(false);
        }
        catch
        {
            await System.Root.StopAsync(driver).ConfigureAwait(false);
            throw;
        }
    }
}
