using Microsoft.Extensions.DependencyInjection;

namespace ThreadIterators.Orleans.Tests;

internal static class NodeAccess
{
    public static ProcessNode Node(this ClusterProcesses processes) => processes.Node;
}
