using System;
using ThreadIterators.Cluster.Benchmarks;

// cluster-compare [--quick] [--runs R] [--workers W] [--out DIR]: the comparison (ClusterCompare.cs).
// cluster-node ...: its second node, started by the comparison.
return args.Length > 0 && args[0] == "cluster-node" ? await ClusterNode.RunAsync(args)
    : args.Length > 0 && args[0] == "cluster-compare" ? await ClusterCompare.RunAsync(args)
    : Usage();

static int Usage()
{
    Console.Error.WriteLine("usage: cluster-compare [--quick] [--runs R] [--workers W] [--out DIR]");
    return 2;
}
