using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Reflection;
using System.Threading.Tasks;
using Akka.Actor;
using Akka.Remote;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>
/// Akka.NET with Akka.Remote: the first node is an actor system in this process, the second (and the node-down
/// workload's third) an actor system in a child process (<see cref="AkkaNode"/>), each on its own port of 127.0.0.1
/// over Akka.Remote's DotNetty TCP transport. The second node's echo and sink are well-known actors that this node
/// finds by actor selection (<c>ResolveOne</c>, an <see cref="Identify"/> round trip); the ring's members on the second
/// node are deployed there from this one (remote deployment). Every message is a plain <c>Tell</c>, answered by a
/// <c>Tell</c> to the sender. Everything is at Akka's defaults but the addresses, the log level and, unless asked for
/// the default, the serializer of the messages: Hyperion, as Akka.NET's documentation advises (<see cref="AkkaNode.RemoteConfig"/>).
/// </summary>
internal sealed class AkkaContender : Contender
{
    private const string NodeName = "node2";
    private const string VictimNodeName = "node3";

    /// <summary>How long any workload or set-up step may take before it counts as hung.</summary>
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(5);

    /// <summary>How long to wait before killing the third node, so that the failure detector has heard heartbeats.</summary>
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(2);

    /// <summary>How long to go on listening after the last watcher heard, to catch one that hears twice.</summary>
    private static readonly TimeSpan Echoes = TimeSpan.FromMilliseconds(500);

    private readonly string _serializer;
    private ActorSystem? _system;
    private Process? _node;
    private Address? _nodeAddress;
    private IActorRef? _echo;
    private IActorRef? _sink;

    /// <summary>Initializes a new instance of the <see cref="AkkaContender"/> class whose messages Hyperion serializes.</summary>
    public AkkaContender()
        : this(json: false)
    {
    }

    /// <summary>Initializes a new instance of the <see cref="AkkaContender"/> class.</summary>
    /// <param name="json">
    /// Whether the messages are serialized by Akka.NET 1.5's default for objects, Newtonsoft.Json, instead of Hyperion;
    /// the contender's name then says so.
    /// </param>
    public AkkaContender(bool json)
        : base(json ? "Akka.Remote (Newtonsoft.Json)" : "Akka.Remote")
    {
        _serializer = json ? AkkaNode.Json : AkkaNode.Hyperion;
    }

    /// <inheritdoc/>
    public override string Version
    {
        get
        {
            var assembly = typeof(RemoteActorRefProvider).Assembly;
            var version = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
                ?? assembly.GetName().Version?.ToString()
                ?? "?";
            var serializer = _serializer == AkkaNode.Hyperion ? "Hyperion serializer" : "Newtonsoft.Json serializer";
            return $"Akka.NET {version.Split('+')[0]} (Akka.Remote, DotNetty TCP, {serializer})";
        }
    }

    /// <summary>
    /// Gets the settings that matter to the figures, read from the running first node: the serializer its messages
    /// get and the remote watch failure detector's timings (Akka's defaults).
    /// </summary>
    public override string? Settings
    {
        get
        {
            if (_system is null)
            {
                return "not started";
            }

            var config = _system.Settings.Config;
            var detector = "akka.remote.watch-failure-detector.";
            var serializer = _system.Serialization.FindSerializerFor(new AkkaMessages.Ping(0)).GetType().Name;
            return string.Create(
                CultureInfo.InvariantCulture,
                $"messages serialized by {serializer} ({(_serializer == AkkaNode.Hyperion ? "bound to System.Object, as Akka's docs advise" : "Akka's default")}); remote watch failure detector: heartbeat every {config.GetTimeSpan(detector + "heartbeat-interval").TotalSeconds:0.###} s, acceptable pause {config.GetTimeSpan(detector + "acceptable-heartbeat-pause").TotalSeconds:0.###} s, phi threshold {config.GetDouble(detector + "threshold"):0.###}, reaper every {config.GetTimeSpan(detector + "unreachable-nodes-reaper-interval").TotalSeconds:0.###} s; log level WARNING");
        }
    }

    /// <inheritdoc/>
    public override IEnumerable<Process> Nodes => _node is null ? [] : [_node];

    /// <inheritdoc/>
    public override async Task StartAsync()
    {
        _system = ActorSystem.Create("node1", AkkaNode.RemoteConfig(0, _serializer));
        var port = FreePort();
        _node = await NodeProcess.StartThisAsync(AkkaNode.Command, NodeName, Text(port), AkkaNode.MainRole, _serializer).ConfigureAwait(false);
        _nodeAddress = new Address("akka.tcp", NodeName, IPAddress.Loopback.ToString(), port);
        _echo = await ResolveAsync(_nodeAddress, AkkaNode.EchoName).ConfigureAwait(false);
        _sink = await ResolveAsync(_nodeAddress, AkkaNode.SinkName).ConfigureAwait(false);
    }

    /// <inheritdoc/>
    public override async Task<double[]> PingPongAsync(int count)
    {
        var (system, echo) = (Started(_system), Started(_echo));
        var done = new TaskCompletionSource<double[]>(TaskCreationOptions.RunContinuationsAsynchronously);
        system.ActorOf(Props.Create(() => new PingerActor(echo, count, done)));
        return await done.Task.WaitAsync(Patience).ConfigureAwait(false);
    }

    /// <inheritdoc/>
    public override async Task StreamAsync(int count, int window)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(window, 1);
        var (system, sink) = (Started(_system), Started(_sink));
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        system.ActorOf(Props.Create(() => new StreamerActor(sink, count, window, done)));
        await done.Task.WaitAsync(Patience).ConfigureAwait(false);
    }

    /// <inheritdoc/>
    public override async Task<TimeSpan> RingAsync(int size, int laps)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(size, 2);
        var (system, address) = (Started(_system), Started(_nodeAddress));
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        // Even places on this node, odd ones deployed onto the second: the deploying node supervises them, and stopping
        // them stops them there.
        var onSecond = Props.Create<RingMemberActor>().WithDeploy(Deploy.None.WithScope(new RemoteScope(address)));
        var members = new IActorRef[size];
        members[0] = system.ActorOf(Props.Create(() => new RingHeadActor(laps, done)));
        for (var i = 1; i < size; i++)
        {
            members[i] = system.ActorOf(i % 2 == 0 ? Props.Create<RingMemberActor>() : onSecond);
        }

        try
        {
            // Set-up, not the ring's work: each member is told its next and answers, so that every deployment is done
            // before the token starts.
            await Task.WhenAll(members.Select((member, i) => member.Ask<AkkaMessages.NextSet>(new AkkaMessages.SetNext(members[(i + 1) % size]), Patience))).ConfigureAwait(false);
            var start = Stopwatch.GetTimestamp();
            members[0].Tell(new AkkaMessages.StartRing());
            await done.Task.WaitAsync(Patience).ConfigureAwait(false);
            return Stopwatch.GetElapsedTime(start);
        }
        finally
        {
            await Task.WhenAll(members.Select(member => member.GracefulStop(Patience))).ConfigureAwait(false);
        }
    }

    /// <inheritdoc/>
    public override async Task<TimeSpan> NodeDownAsync(int watchers)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(watchers, 1);
        var system = Started(_system);
        var port = FreePort();
        var victimNode = await NodeProcess.StartThisAsync(AkkaNode.Command, VictimNodeName, Text(port), AkkaNode.VictimRole, _serializer).ConfigureAwait(false);
        var watching = new List<IActorRef>(watchers);
        try
        {
            var victim = await ResolveAsync(new Address("akka.tcp", VictimNodeName, IPAddress.Loopback.ToString(), port), AkkaNode.VictimName).ConfigureAwait(false);
            var tally = new NodeDownTally(watchers);
            for (var i = 0; i < watchers; i++)
            {
                var index = i;
                watching.Add(system.ActorOf(Props.Create(() => new WatcherActor(victim, index, tally))));
            }

            await tally.AllWatching.Task.WaitAsync(Patience).ConfigureAwait(false);

            // Akka.Remote's death watch across nodes is its remote watch failure detector: heartbeats to the watched
            // node every second, which it answers. A node that dies before the first answer is still found, after
            // expected-response-after; this waits for a couple of answers so that what is measured is the steady case.
            await Task.Delay(Settle).ConfigureAwait(false);
            var killedAt = Stopwatch.GetTimestamp();
            victimNode.Kill();
            var lastHeard = await tally.AllHeard.Task.WaitAsync(Patience).ConfigureAwait(false);
            await Task.Delay(Echoes).ConfigureAwait(false);
            if (tally.Repeats > 0)
            {
                throw new InvalidOperationException($"{tally.Repeats} watchers heard twice that the third node's actor is gone.");
            }

            return Stopwatch.GetElapsedTime(killedAt, lastHeard);
        }
        finally
        {
            foreach (var watcher in watching)
            {
                system.Stop(watcher);
            }

            if (!victimNode.HasExited)
            {
                victimNode.Kill(entireProcessTree: true);
            }

            victimNode.Dispose();
        }
    }

    /// <inheritdoc/>
    public override async ValueTask DisposeAsync()
    {
        try
        {
            if (_system is not null)
            {
                await _system.Terminate().WaitAsync(TimeSpan.FromSeconds(30)).ConfigureAwait(false);
            }
        }
        finally
        {
            if (_node is not null)
            {
                NodeProcess.Stop(_node);
            }

            _system = null;
            _node = null;
        }
    }

    private static T Started<T>(T? value)
        where T : class => value ?? throw new InvalidOperationException("The Akka contender has not been started.");

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);

    private static int FreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    private Task<IActorRef> ResolveAsync(Address node, string name) =>
        Started(_system).ActorSelection(new RootActorPath(node) / "user" / name).ResolveOne(Patience);
}
