using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using ThreadIterators.Supervision;

namespace ThreadIterators.Hosting;

/// <summary>Adds ThreadIterators to a .NET host's services.</summary>
public static class ThreadIteratorsServiceCollectionExtensions
{
    /// <summary>
    /// Registers a <see cref="Scheduler"/> whose lifetime is the host's, with the default options: it starts with the
    /// host; as the host stops, the green-thread services (<see cref="AddGreenThread"/>) are told to stop and waited
    /// for, then every other green thread is stopped, its <c>finally</c> blocks run, all within the host's shutdown
    /// timeout. Unobserved faults, dead letters, long turns and supervisor give-ups go to <c>ILogger</c>.
    /// </summary>
    /// <param name="services">The host's services.</param>
    /// <returns>The services.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    /// <exception cref="InvalidOperationException">It was called on these services already.</exception>
    public static IServiceCollection AddThreadIterators(this IServiceCollection services)
    {
        ArgumentNullException.ThrowIfNull(services);
        return Add(services, configuration: null, configure: null);
    }

    /// <summary>
    /// Registers a <see cref="Scheduler"/> whose lifetime is the host's, as <see cref="AddThreadIterators(IServiceCollection)"/>,
    /// with the options <paramref name="configure"/> sets.
    /// </summary>
    /// <param name="services">The host's services.</param>
    /// <param name="configure">Sets the options.</param>
    /// <returns>The services.</returns>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="InvalidOperationException">It was called on these services already.</exception>
    public static IServiceCollection AddThreadIterators(this IServiceCollection services, Action<ThreadIteratorsHostOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        return Add(services, configuration: null, configure);
    }

    /// <summary>
    /// Registers a <see cref="Scheduler"/> whose lifetime is the host's, as <see cref="AddThreadIterators(IServiceCollection)"/>,
    /// with options read from <paramref name="configuration"/> (the section <c>"ThreadIterators"</c>, say), then set by
    /// <paramref name="configure"/>.
    /// </summary>
    /// <param name="services">The host's services.</param>
    /// <param name="configuration">The section holding the options, under their property names.</param>
    /// <param name="configure">Sets the options after the configuration; may be null.</param>
    /// <returns>The services.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="InvalidOperationException">
    /// It was called on these services already; or, as the scheduler is made, a value of the section does not parse
    /// (the message names its key and value).
    /// </exception>
    public static IServiceCollection AddThreadIterators(this IServiceCollection services, IConfiguration configuration, Action<ThreadIteratorsHostOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        return Add(services, configuration, configure);
    }

    /// <summary>
    /// Adds a green-thread service: a body the host starts with its scheduler and supervises, as a
    /// <c>BackgroundService</c> is a task the host starts. Its token is canceled as the host stops; a body that then
    /// ends is done, and one that does not is stopped. A fault restarts it (as <paramref name="restart"/> says), logged;
    /// past the options' <see cref="ThreadIteratorsHostOptions.MaxRestarts"/> the supervisor gives up, logged as an error.
    /// </summary>
    /// <param name="services">The host's services, with <see cref="AddThreadIterators(IServiceCollection)"/> called.</param>
    /// <param name="id">The service's name: its thread's, and the supervisor's child id; unique.</param>
    /// <param name="body">Makes the body from the host's services and the token canceled as the host stops.</param>
    /// <param name="restart">When the supervisor restarts it: after any end (<see cref="RestartType.Permanent"/>, the default), after an abnormal one, or never.</param>
    /// <returns>The services.</returns>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="InvalidOperationException">AddThreadIterators was not called first, or <paramref name="id"/> is taken.</exception>
    public static IServiceCollection AddGreenThread(this IServiceCollection services, string id, Func<IServiceProvider, CancellationToken, IEnumerable<Event>> body, RestartType restart = RestartType.Permanent)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(id);
        ArgumentNullException.ThrowIfNull(body);
        if (!services.Any(service => service.ServiceType == typeof(ThreadIteratorsHostOptions)))
        {
            throw new InvalidOperationException($"Green-thread service \"{id}\" was added before AddThreadIterators: call services.AddThreadIterators() first, so that a scheduler runs it.");
        }

        if (services.Any(service => service.ServiceType == typeof(HostedGreenThread) && service.ImplementationInstance is HostedGreenThread { Id: var taken } && taken == id))
        {
            throw new InvalidOperationException($"A green-thread service \"{id}\" is added already; each needs its own id.");
        }

        services.AddSingleton(new HostedGreenThread(id, body, restart));
        return services;
    }

    private static IServiceCollection Add(IServiceCollection services, IConfiguration? configuration, Action<ThreadIteratorsHostOptions>? configure)
    {
        if (services.Any(service => service.ServiceType == typeof(ThreadIteratorsHostOptions)))
        {
            throw new InvalidOperationException("AddThreadIterators was called twice on these services; a host has one scheduler: configure it in one call.");
        }

        // Made when first asked for, so that a configuration value that does not parse fails the host's start, naming it.
        services.AddSingleton(_ =>
        {
            var options = new ThreadIteratorsHostOptions();
            if (configuration is not null)
            {
                OptionsBinder.Bind(configuration, options);
            }

            configure?.Invoke(options);
            options.Validate();
            return options;
        });
        services.AddSingleton(provider => new Scheduler(provider.GetRequiredService<ThreadIteratorsHostOptions>().ToSchedulerOptions()));
        services.AddSingleton<LongTurns>();
        services.AddSingleton<ThreadIteratorsHealthCheck>();
        services.AddHostedService<SchedulerHost>();
        return services;
    }
}
