using System;
using System.Globalization;
using System.Threading.Tasks;
using Akka.Actor;
using Akka.Configuration;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>
/// <c>akka-node NAME PORT ROLE SERIALIZER</c>: an Akka.NET actor system named NAME with Akka.Remote on 127.0.0.1:PORT,
/// in a child process of the comparison, serializing objects with SERIALIZER (<see cref="Hyperion"/> or
/// <see cref="Json"/>, as the first node does). ROLE <see cref="MainRole"/> (the second node) holds the echo and the
/// sink, ROLE <see cref="VictimRole"/> (the node-down workload's third node) the victim. It prints
/// <see cref="NodeProcess.Ready"/> once they are there, and terminates its actor system when its standard input closes.
/// </summary>
internal static class AkkaNode
{
    /// <summary>The command that starts a node.</summary>
    public const string Command = "akka-node";

    /// <summary>The role of the second node.</summary>
    public const string MainRole = "main";

    /// <summary>The role of the third node.</summary>
    public const string VictimRole = "victim";

    /// <summary>Objects serialized by Hyperion, the serializer Akka.NET's documentation advises over the default.</summary>
    public const string Hyperion = "hyperion";

    /// <summary>Objects serialized by Newtonsoft.Json, Akka.NET 1.5's default.</summary>
    public const string Json = "json";

    /// <summary>The echo's name, under <c>/user</c>.</summary>
    public const string EchoName = "echo";

    /// <summary>The sink's name, under <c>/user</c>.</summary>
    public const string SinkName = "sink";

    /// <summary>The victim's name, under <c>/user</c>.</summary>
    public const string VictimName = "victim";

    /// <summary>
    /// The configuration every node runs with: Akka.Remote's defaults (DotNetty TCP and its batching, the remote
    /// watch failure detector) but for the address, the serializer of plain objects when <paramref name="serializer"/>
    /// is <see cref="Hyperion"/>, and a log level of WARNING, so that the lifecycle events at INFO (associations, and at
    /// the node-down workload's end the lost node) stay out of the comparison's console. A <paramref name="port"/> of 0
    /// has the transport pick a free one.
    /// </summary>
    public static Config RemoteConfig(int port, string serializer)
    {
        var config = ConfigurationFactory.ParseString(string.Create(CultureInfo.InvariantCulture, $$"""
            akka {
              loglevel = WARNING
              actor.provider = remote
              remote.dot-netty.tcp {
                hostname = 127.0.0.1
                port = {{port}}
              }
            }
            """));

        // Akka.NET 1.5 still serializes plain objects with Newtonsoft.Json by default; its serialization documentation
        // advises moving to Hyperion, bound to System.Object as it shows (Akka's own messages keep their protobuf
        // serializers, bound to their more specific types).
        return serializer == Hyperion
            ? ConfigurationFactory.ParseString("""
                akka.actor.serializers.hyperion = "Akka.Serialization.HyperionSerializer, Akka.Serialization.Hyperion"
                akka.actor.serialization-bindings { "System.Object" = hyperion }
                """).WithFallback(config)
            : config;
    }

    /// <summary>Runs a node until its standard input closes.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        if (args.Length < 5
            || !int.TryParse(args[2], NumberStyles.None, CultureInfo.InvariantCulture, out var port)
            || args[3] is not (MainRole or VictimRole)
            || args[4] is not (Hyperion or Json))
        {
            await Console.Error.WriteLineAsync($"usage: {Command} NAME PORT {MainRole}|{VictimRole} {Hyperion}|{Json}").ConfigureAwait(false);
            return 2;
        }

        var system = ActorSystem.Create(args[1], RemoteConfig(port, args[4]));
        try
        {
            if (args[3] == MainRole)
            {
                system.ActorOf(Props.Create<EchoActor>(), EchoName);
                system.ActorOf(Props.Create<SinkActor>(), SinkName);
            }
            else
            {
                system.ActorOf(Props.Create<EchoActor>(), VictimName);
            }

            Console.WriteLine(NodeProcess.Ready);
            await NodeProcess.WaitForParentAsync().ConfigureAwait(false);
        }
        finally
        {
            await system.Terminate().WaitAsync(TimeSpan.FromSeconds(15)).ConfigureAwait(false);
        }

        return 0;
    }
}
