using System;
using System.Globalization;
using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>
/// <c>proto-node PORT</c>: a node of the Proto.Remote contender in a child process (the second node, or the
/// node-down workload's third): an actor system with Proto.Remote on 127.0.0.1:PORT holding the named actors
/// <see cref="EchoName"/>, <see cref="SinkName"/> and <see cref="RingBuilderName"/>. Prints <see cref="NodeProcess.Ready"/>
/// once they are spawned and the server listens, and ends when its standard input closes.
/// </summary>
internal static class ProtoNode
{
    /// <summary>The node command.</summary>
    public const string Command = "proto-node";

    /// <summary>The name of the <see cref="EchoActor"/>.</summary>
    public const string EchoName = "echo";

    /// <summary>The name of the <see cref="SinkActor"/>.</summary>
    public const string SinkName = "sink";

    /// <summary>The name of the <see cref="RingBuilderActor"/>.</summary>
    public const string RingBuilderName = "ring";

    /// <summary>Runs the node until its parent closes its standard input.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        if (args.Length < 2 || !int.TryParse(args[1], NumberStyles.None, CultureInfo.InvariantCulture, out var port))
        {
            await Console.Error.WriteLineAsync($"usage: {Command} PORT").ConfigureAwait(false);
            return 2;
        }

        var system = await ProtoRemoting.StartAsync(port).ConfigureAwait(false);
        try
        {
            system.Root.SpawnNamed(Props.FromProducer(() => new EchoActor()), EchoName);
            system.Root.SpawnNamed(Props.FromProducer(() => new SinkActor()), SinkName);
            system.Root.SpawnNamed(Props.FromProducer(() => new RingBuilderActor()), RingBuilderName);
            Console.WriteLine(NodeProcess.Ready);
            await NodeProcess.WaitForParentAsync().ConfigureAwait(false);
        }
        finally
        {
            await ProtoRemoting.StopAsync(system).ConfigureAwait(false);
        }

        return 0;
    }
}
