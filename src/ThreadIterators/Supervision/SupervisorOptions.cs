using System;

namespace ThreadIterators.Supervision;

/// <summary>How a <see cref="Supervisor"/> restarts its children, and when it gives up.</summary>
/// <remarks>Read once, by the supervisor's constructor, which checks every value.</remarks>
public sealed class SupervisorOptions
{
    /// <summary>Gets a name for the supervisor, which its thread, its children's threads and its exceptions show.</summary>
    public string? Name { get; init; }

    /// <summary>Gets which children a restart takes. Defaults to <see cref="SupervisionStrategy.OneForOne"/>.</summary>
    public SupervisionStrategy Strategy { get; init; } = SupervisionStrategy.OneForOne;

    /// <summary>
    /// Gets the restart intensity: how many restarts the supervisor makes within <see cref="Period"/> before it gives
    /// up. The restart that would be one more than this within the period is not made: the supervisor shuts its
    /// children down, in reverse start order, and ends faulted with a <see cref="SupervisorGaveUpException"/>. Zero gives
    /// up at the first restart. Defaults to 1, as OTP's.
    /// </summary>
    public int MaxRestarts { get; init; } = 1;

    /// <summary>
    /// Gets the period <see cref="MaxRestarts"/> counts over; more than zero. Defaults to 5 seconds, as OTP's. A restart
    /// exactly one period old still counts, as in OTP.
    /// </summary>
    public TimeSpan Period { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Gets when the supervisor shuts itself down because its significant children (<see cref="ChildSpec.Significant"/>)
    /// ended by themselves; <see cref="Supervision.AutoShutdown.Never"/> by default, as OTP's <c>auto_shutdown</c>.
    /// </summary>
    public AutoShutdown AutoShutdown { get; init; }

    /// <summary>Gets a delay before each restart that grows while children keep failing, or null (the default) to restart at once.</summary>
    public RestartBackoff? Backoff { get; init; }
}
