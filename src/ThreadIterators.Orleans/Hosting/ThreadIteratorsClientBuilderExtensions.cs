using System;
using System.Linq;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Orleans;
using Orleans.Configuration;
using Orleans.Hosting;
using Orleans.Serialization;

namespace ThreadIterators.Orleans;

/// <summary>Lets an Orleans client, outside the cluster, send to the cluster's processes, ask them and monitor them.</summary>
public static class ThreadIteratorsClientBuilderExtensions
{
    /// <summary>
    /// Adds a <see cref="Scheduler"/> whose lifetime is the client's, and <see cref="ClusterProcesses"/>, through which
    /// green threads and OS threads in this client send to any process of the cluster, ask it and monitor it, with the
    /// guarantees a silo's senders have: each sender's messages arrive in order and at most once.
    /// </summary>
    /// <param name="builder">The client's builder.</param>
    /// <param name="configure">Sets the scheduler's options; may be null. A client registers no kinds of process.</param>
    /// <returns>The builder.</returns>
    /// <remarks>
    /// The cluster's processes run on silos: <see cref="ClusterProcesses.SpawnAsync{T}(string, System.Func{Mailbox{T}, System.Collections.Generic.IEnumerable{Event}})"/> fails on a client. A
    /// <see cref="ProcessRef{T}"/> that reaches the client (a grain's answer, a message) sends through it. A client is
    /// not a member of the cluster: it reads a gateway silo's view of the membership, by a long poll, so its monitors,
    /// links and asks hear <see cref="ProcessExitReason.NodeDown"/> as soon as that view holds a silo dead. A link from
    /// a client's thread is kept by the client alone: the client's death stops no process.
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> is null.</exception>
    /// <exception cref="InvalidOperationException">It was called on this builder already, or a kind of process was registered.</exception>
    public static IClientBuilder AddThreadIterators(this IClientBuilder builder, Action<ThreadIteratorsClusterOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var options = NodeServices.Add(
            builder.Services,
            configure,
            "client",
            _ => null,
            services => services.GetRequiredService<IOptions<ClientMessagingOptions>>().Value.MaxMessageBodySize);
        if (options.Kinds.Count > 0)
        {
            throw new InvalidOperationException(
                $"Kinds of process ({string.Join(", ", options.Kinds.Keys)}) are activated on silos, not on a client: register them in the silos' AddThreadIterators.");
        }

        builder.Services.AddSingleton<ILifecycleParticipant<IClusterClientLifecycle>, ClientSchedulerLifecycle>();
        builder.Services.AddSingleton<ILifecycleParticipant<IClusterClientLifecycle>, ClientMembershipWatch>();
        return builder;
    }
}
