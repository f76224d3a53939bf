using System;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>Not written yet.</summary>
internal static class AkkaNode
{
    public const string Command = "akka-node";

    public static Task<int> RunAsync(string[] args) => throw new NotImplementedException();
}
