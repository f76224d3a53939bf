using System;
using System.Collections.Generic;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace ThreadIterators.Hosting;

/// <summary>Adds the scheduler's health check to a host's health checks.</summary>
public static class ThreadIteratorsHealthChecksBuilderExtensions
{
    /// <summary>
    /// Adds a check of the scheduler <c>AddThreadIterators</c> registered: unhealthy when no worker runs a new green
    /// thread within the long-turn threshold, or while a worker is held past it by one turn (a thread that blocks its OS
    /// thread, or computes without yielding), naming the worker and the thread.
    /// </summary>
    /// <param name="builder">The host's health checks.</param>
    /// <param name="name">The check's name; "threaditerators" by default.</param>
    /// <param name="tags">Tags to filter the check by, such as "ready" or "live"; may be null.</param>
    /// <returns>The builder.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> is null.</exception>
    public static IHealthChecksBuilder AddThreadIterators(this IHealthChecksBuilder builder, string name = "threaditerators", IEnumerable<string>? tags = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        return builder.Add(new HealthCheckRegistration(name, services => services.GetRequiredService<ThreadIteratorsHealthCheck>(), failureStatus: HealthStatus.Unhealthy, tags));
    }
}
