using System;
using System.Linq;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Orleans;
using Orleans.Runtime;
using Orleans.Serialization;

namespace ThreadIterators.Orleans;

/// <summary>What AddThreadIterators registers on a silo's builder and on a client's alike.</summary>
internal static class NodeServices
{
    /// <summary>
    /// Registers the options, the scheduler, the node and <see cref="ClusterProcesses"/>, once; returns the options,
    /// configured.
    /// </summary>
    /// <param name="services">The builder's services.</param>
    /// <param name="configure">The user's configuration, or null.</param>
    /// <param name="what">"silo" or "client", for the message of a second call.</param>
    /// <param name="silo">This silo's address, or null for a client.</param>
    /// <param name="maxMessageBodySize">The largest message body the cluster carries, as the builder's messaging options say.</param>
    internal static ThreadIteratorsClusterOptions Add(
        IServiceCollection services,
        Action<ThreadIteratorsClusterOptions>? configure,
        string what,
        Func<IServiceProvider, SiloAddress?> silo,
        Func<IServiceProvider, int> maxMessageBodySize)
    {
        if (services.Any(service => service.ServiceType == typeof(ThreadIteratorsClusterOptions)))
        {
            throw new InvalidOperationException($"AddThreadIterators was called twice on this {what}'s builder; a {what} has one scheduler: configure it in one call.");
        }

        var options = new ThreadIteratorsClusterOptions();
        configure?.Invoke(options);
        services.AddSingleton(options);
        services.AddSingleton(_ => new Scheduler(options.Scheduler));
        services.AddSingleton(provider => new ProcessNode(
            options,
            provider.GetRequiredService<Scheduler>(),
            provider.GetRequiredService<IGrainFactory>(),
            provider.GetRequiredService<Serializer>(),
            silo(provider),
            maxMessageBodySize(provider),
            provider.GetRequiredService<ILogger<ProcessNode>>()));
        services.AddSingleton(provider => new ClusterProcesses(provider.GetRequiredService<ProcessNode>()));
        return options;
    }
}
