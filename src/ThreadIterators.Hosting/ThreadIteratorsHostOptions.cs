using System;
using ThreadIterators.Supervision;

namespace ThreadIterators.Hosting;

/// <summary>
/// How <see cref="ThreadIteratorsServiceCollectionExtensions.AddThreadIterators(Microsoft.Extensions.DependencyInjection.IServiceCollection)"/>
/// sets up the host's scheduler: the scheduler's options, how the host's stop treats green threads, and the
/// supervisor of the green-thread services. Bound from configuration by the overload that takes a section, under the
/// same names (<c>"ThreadIterators": { "WorkerCount": 2, "LongTurnThreshold": "00:00:02" }</c>).
/// </summary>
public sealed class ThreadIteratorsHostOptions
{
    /// <summary>Gets or sets the scheduler's name, which its threads' names and the logs show; null by default.</summary>
    public string? Name { get; set; }

    /// <summary>Gets or sets how many OS threads run green threads; one per processor by default.</summary>
    public int WorkerCount { get; set; } = Environment.ProcessorCount;

    /// <summary>Gets or sets where ready threads run; <see cref="Scheduler.DefaultPolicy"/> by default.</summary>
    public SchedulingPolicy Policy { get; set; } = Scheduler.DefaultPolicy;

    /// <summary>Gets or sets how long one turn may hold a worker before it is logged and the health check reports it; 1 s by default.</summary>
    public TimeSpan LongTurnThreshold { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Gets or sets how long the host's stop waits, once the green-thread services have ended, for the other green
    /// threads to end on their own before it stops them (their <c>finally</c> blocks run either way). Zero by default:
    /// a thread that waits for a message nobody will send would hold the stop for as long as it is let. The host's
    /// shutdown timeout bounds it.
    /// </summary>
    public TimeSpan DrainTimeout { get; set; } = TimeSpan.Zero;

    /// <summary>Gets or sets how many restarts of the green-thread services the supervisor allows within <see cref="RestartPeriod"/> before it gives up; 3 by default.</summary>
    public int MaxRestarts { get; set; } = 3;

    /// <summary>Gets or sets the window <see cref="MaxRestarts"/> counts in; 5 s by default.</summary>
    public TimeSpan RestartPeriod { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Gets or sets how many dead letters are logged a minute, one entry each; the rest of that minute are counted in
    /// one entry at its end, as Akka.NET's <c>log-dead-letters</c> does. 10 by default; 0 logs none.
    /// </summary>
    public int DeadLettersLoggedPerMinute { get; set; } = 10;

    /// <summary>Makes the scheduler's options.</summary>
    internal SchedulerOptions ToSchedulerOptions() => new()
    {
        Name = Name,
        WorkerCount = WorkerCount,
        Policy = Policy,
        LongTurnThreshold = LongTurnThreshold,
    };

    /// <summary>Makes the supervisor's options.</summary>
    internal SupervisorOptions ToSupervisorOptions() => new()
    {
        Name = Name is null ? "green-thread services" : $"{Name} green-thread services",
        MaxRestarts = MaxRestarts,
        Period = RestartPeriod,
    };

    /// <summary>Throws, naming the option, if a value is out of range.</summary>
    internal void Validate()
    {
        if (WorkerCount < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(WorkerCount), WorkerCount, "ThreadIterators:WorkerCount must be at least 1.");
        }

        if (LongTurnThreshold <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(LongTurnThreshold), LongTurnThreshold, "ThreadIterators:LongTurnThreshold must be positive.");
        }

        if (DrainTimeout < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(DrainTimeout), DrainTimeout, "ThreadIterators:DrainTimeout must not be negative.");
        }

        if (MaxRestarts < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(MaxRestarts), MaxRestarts, "ThreadIterators:MaxRestarts must not be negative.");
        }

        if (RestartPeriod <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(RestartPeriod), RestartPeriod, "ThreadIterators:RestartPeriod must be positive.");
        }

        if (DeadLettersLoggedPerMinute < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(DeadLettersLoggedPerMinute), DeadLettersLoggedPerMinute, "ThreadIterators:DeadLettersLoggedPerMinute must not be negative.");
        }
    }
}
