using System;
using System.Linq;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Orleans;
using Orleans.Configuration;
using Orleans.GrainDirectory;
using Orleans.Hosting;
using Orleans.Runtime;
using Orleans.Runtime.Hosting;
using Orleans.Serialization;

namespace ThreadIterators.Orleans;

/// <summary>Gives an Orleans silo a ThreadIterators scheduler, and its green threads names the whole cluster reaches.</summary>
public static class ThreadIteratorsSiloBuilderExtensions
{
    /// <summary>
    /// Adds a <see cref="Scheduler"/> whose lifetime is the silo's, and <see cref="ClusterProcesses"/>, through which
    /// green threads, OS threads and grains on this silo spawn named processes and send to any process of the cluster.
    /// </summary>
    /// <param name="builder">The silo's builder.</param>
    /// <param name="configure">Sets the scheduler's options and registers kinds of process; may be null.</param>
    /// <returns>The builder.</returns>
    /// <remarks>
    /// The silo's services then hold the <see cref="Scheduler"/> and <see cref="ClusterProcesses"/>. As the silo stops,
    /// its scheduler is disposed: every green thread still running is stopped, its <c>finally</c> blocks run, and
    /// its watchers are told; the silo's stop waits for that, up to the silo's own shutdown timeout.
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> is null.</exception>
    /// <exception cref="InvalidOperationException">It was called on this builder already.</exception>
    public static ISiloBuilder AddThreadIterators(this ISiloBuilder builder, Action<ThreadIteratorsClusterOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        NodeServices.Add(
            builder.Services,
            configure,
            "silo",
            services => services.GetRequiredService<ILocalSiloDetails>().SiloAddress,
            services => services.GetRequiredService<IOptions<SiloMessagingOptions>>().Value.MaxMessageBodySize);
        if (DistributedDirectoryName(builder.Services) is { } registered)
        {
            // The silo registered Orleans' distributed directory already, under its own name: Orleans would ignore a
            // second name, and the processes' grains would find no directory. Their name stands for the same one.
            builder.Services.AddGrainDirectory(ProcessGrain.DirectoryName, (services, _) => new SharedGrainDirectory(services.GetRequiredKeyedService<IGrainDirectory>(registered)));
        }
        else
        {
#pragma warning disable ORLEANSEXP003 // Experimental in Orleans 10, and the only directory that survives a silo's crash; see ProcessGrain.
            builder.AddDistributedGrainDirectory(ProcessGrain.DirectoryName);
#pragma warning restore ORLEANSEXP003
        }

        builder.Services.AddSingleton<ILifecycleParticipant<ISiloLifecycle>, SchedulerLifecycle>();
        builder.Services.AddSingleton<ILifecycleParticipant<ISiloLifecycle>, MembershipWatch>();
        return builder;
    }

    /// <summary>
    /// Gets the name Orleans' distributed grain directory was registered under on this silo (AddDistributedGrainDirectory,
    /// which registers it once: the directory's own service, then its name), or null if it was not.
    /// </summary>
    private static string? DistributedDirectoryName(IServiceCollection services)
    {
        var directory = -1;
        for (var i = 0; i < services.Count; i++)
        {
            if (directory < 0 && services[i].ServiceType.FullName == "Orleans.Runtime.GrainDirectory.DistributedGrainDirectory")
            {
                directory = i;
            }
            else if (directory >= 0 && services[i] is { IsKeyedService: true, ServiceKey: string name } && services[i].ServiceType == typeof(IGrainDirectory))
            {
                return name;
            }
        }

        return directory < 0
            ? null
            : throw new InvalidOperationException(
                "Orleans' distributed grain directory is registered on this silo under no name AddThreadIterators can find (this version of Orleans registers it otherwise than 10.4): call AddThreadIterators before AddDistributedGrainDirectory.");
    }
}
