using System;
using System.Net;
using System.Net.Sockets;
using System.Reflection;
using System.Threading.Tasks;
using Proto;
using Proto.Remote;
using Proto.Remote.GrpcNet;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>
/// What every node of the Proto.Remote contender shares: an actor system with Proto.Remote's gRPC transport
/// (GrpcNet, Kestrel serving HTTP/2) bound to 127.0.0.1, its messages registered with Proto.Remote's protobuf
/// serializer, and every other remote setting left at its default.
/// </summary>
internal static class ProtoRemoting
{
    /// <summary>Gets what the contender runs on, from Proto.Actor's informational version.</summary>
    public static string Version { get; } = $"Proto.Actor {InformationalVersion(typeof(ActorSystem).Assembly)} (Proto.Remote {InformationalVersion(typeof(IRemote).Assembly)}, gRPC)";

    /// <summary>Starts an actor system listening on 127.0.0.1:<paramref name="port"/> (0: any free port, read back from its address).</summary>
    public static async Task<ActorSystem> StartAsync(int port)
    {
        // Defaults throughout: the endpoint writer's batch of up to 1,000 messages, its 3 reconnect tries before it
        // gives an address up (which is what turns a lost node into Terminated for its watchers), the gRPC channel's
        // options. Only the messages' descriptor is added, so that the protobuf serializer knows their types.
        var config = RemoteConfig.BindToLocalhost(port).WithProtoMessages(ProtoMessagesReflection.Descriptor);
        var system = new ActorSystem(new ActorSystemConfig()).WithRemote(config);
        await system.Remote().StartAsync().ConfigureAwait(false);
        return system;
    }

    /// <summary>Stops the system's remoting (its connections and its server), then the system.</summary>
    public static async Task StopAsync(ActorSystem system)
    {
        try
        {
            await system.Remote().ShutdownAsync(graceful: true).ConfigureAwait(false);
        }
        finally
        {
            await system.ShutdownAsync().ConfigureAwait(false);
        }
    }

    /// <summary>A port on the loopback interface that nothing listens on now, for a child node to bind.</summary>
    public static int FreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    private static string InformationalVersion(Assembly assembly)
    {
        var version = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
            ?? assembly.GetName().Version?.ToString()
            ?? "?";

        // Drop the source-revision suffix ("1.8.0+abcdef"): the report wants the release.
        var plus = version.IndexOf('+', StringComparison.Ordinal);
        return plus < 0 ? version : version[..plus];
    }
}
