using System;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>Not written yet.</summary>
internal static class ProtoNode
{
    public const string Command = "proto-node";

    public static Task<int> RunAsync(string[] args) => throw new NotImplementedException();
}
