using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators.Supervision;

/// <summary>
/// How a <see cref="Supervisor"/> starts one child and treats its end (OTP's child specification): an id, a factory of
/// the child's body, a <see cref="RestartType"/> and a shutdown grace. Immutable; one spec may serve any number of
/// starts, since each start calls the factory for a fresh body.
/// </summary>
/// <example>
/// A worker that finishes its current job when asked to shut down, given 2 seconds for it:
/// <code>
/// var spec = new ChildSpec("worker", stop => Work(jobs, stop)) { Shutdown = TimeSpan.FromSeconds(2) };
/// </code>
/// </example>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class ChildSpec
{
    private readonly TimeSpan _shutdown = TimeSpan.FromSeconds(5);

    /// <summary>Initializes a spec whose body is given a token that is canceled when the supervisor shuts the child down.</summary>
    /// <param name="id">The child's id, unique among its supervisor's children.</param>
    /// <param name="start">Makes a fresh body for each start; called on the supervisor's thread. A factory that throws is a child that faulted at once.</param>
    /// <exception cref="ArgumentNullException"><paramref name="id"/> or <paramref name="start"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="id"/> is empty.</exception>
    public ChildSpec(string id, Func<CancellationToken, IEnumerable<Event>> start)
    {
        ArgumentException.ThrowIfNullOrEmpty(id);
        ArgumentNullException.ThrowIfNull(start);
        Id = id;
        StartWithToken = start;
    }

    /// <summary>Initializes a spec whose body takes no token: a shutdown stops it (<see cref="GreenThread.Stop"/>) at once, its <c>finally</c> blocks run.</summary>
    /// <param name="id">The child's id, unique among its supervisor's children.</param>
    /// <param name="start">Makes a fresh body for each start; called on the supervisor's thread. A factory that throws is a child that faulted at once.</param>
    /// <exception cref="ArgumentNullException"><paramref name="id"/> or <paramref name="start"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="id"/> is empty.</exception>
    public ChildSpec(string id, Func<IEnumerable<Event>> start)
    {
        ArgumentException.ThrowIfNullOrEmpty(id);
        ArgumentNullException.ThrowIfNull(start);
        Id = id;
        StartPlain = start;
    }

    /// <summary>Gets the child's id, unique among its supervisor's children.</summary>
    public string Id { get; }

    /// <summary>Gets when the child is restarted. Defaults to <see cref="RestartType.Permanent"/>.</summary>
    public RestartType Restart { get; init; } = RestartType.Permanent;

    /// <summary>
    /// Gets a value indicating whether the child's end by itself may shut its supervisor down, as the supervisor's
    /// <see cref="SupervisorOptions.AutoShutdown"/> says (OTP's <c>significant</c>). Only a <see cref="RestartType.Transient"/>
    /// or <see cref="RestartType.Temporary"/> child may be significant, and only under a supervisor whose auto-shutdown is
    /// not <see cref="AutoShutdown.Never"/>: the supervisor refuses any other with an <see cref="ArgumentException"/> naming
    /// the child. False by default.
    /// </summary>
    public bool Significant { get; init; }

    /// <summary>
    /// Gets the shutdown grace: when the supervisor shuts the child down, it cancels the child's token and waits this
    /// long for it to end by itself, then stops it (<see cref="GreenThread.Stop"/>) and waits for its <c>finally</c>
    /// blocks. <see cref="TimeSpan.Zero"/> stops it at once (OTP's <c>brutal_kill</c>);
    /// <see cref="Timeout.InfiniteTimeSpan"/> waits for it as long as it takes (what a child supervisor should have).
    /// Defaults to 5 seconds, as OTP's. A body that takes no token is stopped at once whatever this is.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Set to a negative time other than infinite, or more than <see cref="Event.MaxSleep"/>.</exception>
    public TimeSpan Shutdown
    {
        get => _shutdown;
        init => _shutdown = (value >= TimeSpan.Zero && value <= Event.MaxSleep) || value == Timeout.InfiniteTimeSpan
            ? value
            : throw new ArgumentOutOfRangeException(nameof(Shutdown), value, $"The shutdown grace of child '{Id}' must last from zero to {Event.MaxSleepText}, or be Timeout.InfiniteTimeSpan.");
    }

    /// <summary>The factory given a token, or null.</summary>
    internal Func<CancellationToken, IEnumerable<Event>>? StartWithToken { get; }

    /// <summary>The factory given nothing, or null.</summary>
    internal Func<IEnumerable<Event>>? StartPlain { get; }

    /// <inheritdoc/>
    public override string ToString() => $"child '{Id}' ({Restart}{(Significant ? ", significant" : string.Empty)}, shutdown {(Shutdown == Timeout.InfiniteTimeSpan ? "infinite" : Shutdown.ToString())})";
}
