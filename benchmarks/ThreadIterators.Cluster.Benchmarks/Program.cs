using System;
using System.Linq;
using ThreadIterators.Cluster.Benchmarks;
using ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;
using ThreadIterators.Cluster.Benchmarks.Contenders.Akka;
using ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

// cluster-compare [--quick] [--runs R] [--workers W] [--out DIR]: the comparison (ClusterCompare.cs).
// The node commands start the contenders' nodes in child processes; the comparison runs them.
return args.FirstOrDefault() switch
{
    "cluster-compare" => await ClusterCompare.RunAsync(args),
    ClusterNode.Command => await ClusterNode.RunAsync(args),
    AkkaNode.Command => await AkkaNode.RunAsync(args),
    ProtoNode.Command => await ProtoNode.RunAsync(args),
    _ => Usage(),
};

static int Usage()
{
    Console.Error.WriteLine("usage: cluster-compare [--quick] [--runs R] [--workers W] [--out DIR]");
    return 2;
}
