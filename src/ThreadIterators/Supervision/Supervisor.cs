using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Supervision;

/// <summary>
/// A supervisor (OTP's <c>supervisor</c>, Akka.NET's supervisor strategies): a green thread that starts children from
/// their <see cref="ChildSpec"/>s, restarts them when they end by their <see cref="RestartType"/> and its
/// <see cref="SupervisionStrategy"/>, and gives up, ending faulted, when restarts come faster than its intensity
/// allows, so that its own supervisor can restart it: a supervision tree.
/// </summary>
/// <remarks>
/// <para>
/// A supervisor is a description and a handle. <see cref="Start"/> spawns its thread; <see cref="Run"/> gives the
/// body to spawn yourself or to start as another supervisor's child (<see cref="ToChildSpec"/>). Each run begins
/// with the children given here, started in order, each with its own thread, watched; children added at run time
/// (<see cref="StartChildAsync"/>) belong to that run only, as OTP's do. One run at a time.
/// </para>
/// <para>
/// Shutdown, when the run's token is canceled (or when a restart or a removal takes a child): the children are shut
/// down one at a time, in reverse start order, each given its <see cref="ChildSpec.Shutdown"/> grace to end after its
/// token is canceled, then stopped (<see cref="GreenThread.Stop"/>) and waited for. Then the supervisor's thread ends
/// normally. A supervisor's thread that is stopped instead (a link, its scheduler's disposal, or its own supervisor
/// after the grace) stops its running children, in reverse start order, without waiting for them.
/// </para>
/// <para>
/// A child's fault is observed by its supervisor (it is not reported through <see cref="Scheduler.UnobservedFault"/>)
/// and shows in <see cref="Restarted"/>; a supervisor's own fault is observed by whoever joins its thread, or its own
/// supervisor, and otherwise reported.
/// </para>
/// <example>
/// A supervisor of two workers, restarting either when it crashes, at most 5 times in 10 seconds:
/// <code>
/// var supervisor = new Supervisor(
///     new SupervisorOptions { Name = "jobs", MaxRestarts = 5, Period = TimeSpan.FromSeconds(10) },
///     new ChildSpec("fetcher", stop => Fetch(queue, stop)),
///     new ChildSpec("writer", stop => Write(results, stop)) { Shutdown = TimeSpan.FromSeconds(2) });
/// supervisor.Restarted += (_, e) => Console.WriteLine(e);   // restarted [fetcher] after ... ended Faulted: ...
/// using var shutdown = new CancellationTokenSource();
/// var thread = supervisor.Start(scheduler, shutdown.Token);
/// ...
/// shutdown.Cancel();                                        // writer, then fetcher, each given its grace
/// await thread.AsTask();
/// </code>
/// </example>
/// </remarks>
[DebuggerDisplay("{ToString(),nq}")]
public sealed partial class Supervisor
{
    /// <summary>The last number given to a supervisor in this process.</summary>
    private static long s_lastNumber;

    private readonly ChildSpec[] _initial;

    /// <summary>The lock over what other threads read of a run; its own object, since <see cref="_initial"/> is handed out.</summary>
    private readonly object _gate = new();

    private readonly long _number = Interlocked.Increment(ref s_lastNumber);

    /// <summary>The current run, or null; guarded by <see cref="Gate"/>.</summary>
    private SupervisorRun? _run;

    /// <summary>Restarts made, by every run.</summary>
    private long _restartCount;

    /// <summary>Initializes a supervisor with the children every run starts, in order.</summary>
    /// <param name="options">How it restarts and when it gives up.</param>
    /// <param name="children">The children each run starts, in this order; ids unique.</param>
    /// <exception cref="ArgumentNullException"><paramref name="options"/>, <paramref name="children"/> or one of them is null.</exception>
    /// <exception cref="ArgumentException">Two children have the same id.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; the message names it.</exception>
    public Supervisor(SupervisorOptions options, params ChildSpec[] children)
        : this(options, (IEnumerable<ChildSpec>)children)
    {
    }

    /// <summary>Initializes a supervisor with the children every run starts, in order.</summary>
    /// <param name="options">How it restarts and when it gives up.</param>
    /// <param name="children">The children each run starts, in this order; ids unique.</param>
    /// <exception cref="ArgumentNullException"><paramref name="options"/>, <paramref name="children"/> or one of them is null.</exception>
    /// <exception cref="ArgumentException">Two children have the same id.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; the message names it.</exception>
    public Supervisor(SupervisorOptions options, IEnumerable<ChildSpec> children)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(children);
        Name = options.Name;
        if (!Enum.IsDefined(options.Strategy))
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.Strategy, $"{this}: SupervisorOptions.Strategy is not a {nameof(SupervisionStrategy)}.");
        }

        if (options.MaxRestarts < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.MaxRestarts, $"{this}: SupervisorOptions.MaxRestarts must be zero or more.");
        }

        if (options.Period <= TimeSpan.Zero || options.Period > Event.MaxSleep)
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.Period, $"{this}: SupervisorOptions.Period must be more than zero and at most {Event.MaxSleepText}.");
        }

        if (!Enum.IsDefined(options.AutoShutdown))
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.AutoShutdown, $"{this}: SupervisorOptions.AutoShutdown is not an {nameof(Supervision.AutoShutdown)}.");
        }

        var initial = new List<ChildSpec>();
        var ids = new HashSet<string>(StringComparer.Ordinal);
        foreach (var child in children)
        {
            ArgumentNullException.ThrowIfNull(child, nameof(children));
            CheckSignificance(child, options.AutoShutdown, nameof(children));
            if (!ids.Add(child.Id))
            {
                throw new ArgumentException($"{this} is given two children with the id '{child.Id}'.", nameof(children));
            }

            initial.Add(child);
        }

        // A copy: the caller's options cannot change under a running supervisor.
        Options = new SupervisorOptions { Name = options.Name, Strategy = options.Strategy, MaxRestarts = options.MaxRestarts, Period = options.Period, Backoff = options.Backoff, AutoShutdown = options.AutoShutdown };
        _initial = [.. initial];
    }

    /// <summary>
    /// Refuses a significant child that OTP refuses too: a permanent one (it is never ended by itself), or one under a
    /// supervisor that never shuts itself down.
    /// </summary>
    internal void CheckSignificance(ChildSpec child, AutoShutdown autoShutdown, string parameter)
    {
        if (!child.Significant)
        {
            return;
        }

        if (child.Restart == RestartType.Permanent)
        {
            throw new ArgumentException($"{this}: {child} cannot be significant: a permanent child never ends by itself. Make it Transient or Temporary.", parameter);
        }

        if (autoShutdown == AutoShutdown.Never)
        {
            throw new ArgumentException($"{this}: {child} is significant, but SupervisorOptions.AutoShutdown is Never, so its end would mean nothing. Set AutoShutdown to AnySignificant or AllSignificant.", parameter);
        }
    }

    /// <summary>
    /// Raised on the supervisor's thread for every restart, once the children it restarts have started. A handler
    /// must not block; one that throws is reported on standard error and the supervisor goes on.
    /// </summary>
    public event EventHandler<ChildRestartedEventArgs>? Restarted;

    /// <summary>
    /// Raised on the supervisor's thread when it gives up, once its children are shut down, just before its thread
    /// ends faulted with the event's exception. A handler must not block; one that throws is reported on standard error.
    /// </summary>
    public event EventHandler<SupervisorGaveUpEventArgs>? GaveUp;

    /// <summary>Gets the supervisor's name, from its options, or null.</summary>
    public string? Name { get; }

    /// <summary>Gets its options (a copy of those given).</summary>
    public SupervisorOptions Options { get; }

    /// <summary>Gets the children every run starts, in order.</summary>
    public IReadOnlyList<ChildSpec> InitialChildren => Array.AsReadOnly(_initial);

    /// <summary>Gets the thread of the current run, or null if the supervisor is not running.</summary>
    public GreenThread? Thread
    {
        get
        {
            lock (Gate)
            {
                return _run is { Ended: false } run ? run.Thread : null;
            }
        }
    }

    /// <summary>Gets how many restarts the supervisor has made, over all its runs: one per restart, however many children it took.</summary>
    public long RestartCount => Interlocked.Read(ref _restartCount);

    /// <summary>Gets a snapshot of the current run's children, in start order; empty if the supervisor is not running.</summary>
    public IReadOnlyList<SupervisedChild> Children
    {
        get
        {
            lock (Gate)
            {
                return _run is { Ended: false } run ? run.Snapshot() : [];
            }
        }
    }

    /// <summary>The lock over what other threads read of a run (see <see cref="SupervisorRun"/>); never held across a wait.</summary>
    internal object Gate => _gate;

    /// <summary>The current run; under <see cref="Gate"/>.</summary>
    internal SupervisorRun? CurrentRun => _run;

    /// <summary>
    /// Spawns a thread on <paramref name="scheduler"/> that runs the supervisor (<see cref="Run"/>), named after it.
    /// </summary>
    /// <param name="scheduler">Where the supervisor and its children run.</param>
    /// <param name="stop">Shuts the supervisor down gracefully when canceled: its children in reverse start order, each given its grace, then its thread ends normally.</param>
    /// <returns>The supervisor's thread: it ends normally after a shutdown, faulted with a <see cref="SupervisorGaveUpException"/> after giving up.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="scheduler"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The supervisor is running already.</exception>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    public GreenThread Start(Scheduler scheduler, CancellationToken stop = default)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        var body = NewRun(stop, out var run);
        GreenThread thread;
        try
        {
            thread = scheduler.Spawn(body, Name ?? "supervisor");
        }
        catch
        {
            lock (Gate)
            {
                RunEnded(run);
            }

            throw;
        }

        run.Attach(thread);
        return thread;
    }

    /// <summary>
    /// Gets a body that runs the supervisor, to spawn or to start as a child of another supervisor
    /// (<see cref="ToChildSpec"/>). Each body is a new run, with the initial children.
    /// </summary>
    /// <param name="stop">Shuts the supervisor down gracefully when canceled (see <see cref="Start"/>).</param>
    /// <returns>The body; commands (<see cref="StartChildAsync"/>) are taken once its thread has started.</returns>
    /// <exception cref="InvalidOperationException">The supervisor is running already.</exception>
    public IEnumerable<Event> Run(CancellationToken stop = default) => NewRun(stop, out _);

    /// <summary>
    /// A spec that starts this supervisor as a child of another: permanent, with an infinite shutdown grace, so that
    /// its parent waits while it shuts its own children down (as OTP's supervisor children have).
    /// </summary>
    /// <param name="id">The child's id; defaults to the supervisor's name.</param>
    /// <returns>The spec. For another restart type or grace, make a spec of your own: <c>new ChildSpec(id, stop =&gt; supervisor.Run(stop)) { ... }</c>.</returns>
    /// <exception cref="ArgumentException">No id is given and the supervisor has no name.</exception>
    public ChildSpec ToChildSpec(string? id = null) =>
        new(id ?? Name ?? throw new ArgumentException($"{this} has no name to be its child id; give one.", nameof(id)), stop => Run(stop))
        {
            Shutdown = Timeout.InfiniteTimeSpan,
        };

    /// <summary>
    /// Adds a child to the running supervisor, at the end of its start order, and starts it (OTP's <c>start_child</c>).
    /// The child belongs to this run only. Any thread; from a green thread, yield the task's event
    /// (<c>task.AsEvent()</c>).
    /// </summary>
    /// <param name="spec">The child.</param>
    /// <returns>
    /// A task completed with the child's thread once started; faulted with an <see cref="ArgumentException"/> if a child
    /// with that id exists, or with an <see cref="InvalidOperationException"/> if the supervisor is not running or
    /// ends first.
    /// </returns>
    /// <exception cref="ArgumentNullException"><paramref name="spec"/> is null.</exception>
    public Task<GreenThread> StartChildAsync(ChildSpec spec)
    {
        ArgumentNullException.ThrowIfNull(spec);
        var command = new SupervisorCommand(spec, null);
        Send(command);
        return command.Added!.Task;
    }

    /// <summary>
    /// Shuts a child down, as a shutdown does (its grace, then a stop), and removes it from the running supervisor, so
    /// that it is not restarted (OTP's <c>terminate_child</c> and <c>delete_child</c>). Any thread.
    /// </summary>
    /// <param name="id">The child's id.</param>
    /// <returns>
    /// A task completed with true once the child has ended and is removed, or false if there is no child with that id;
    /// faulted with an <see cref="InvalidOperationException"/> if the supervisor is not running or ends first.
    /// </returns>
    /// <exception cref="ArgumentNullException"><paramref name="id"/> is null.</exception>
    public Task<bool> RemoveChildAsync(string id)
    {
        ArgumentNullException.ThrowIfNull(id);
        var command = new SupervisorCommand(null, id);
        Send(command);
        return command.Removed!.Task;
    }

    /// <inheritdoc/>
    public override string ToString() => Name is null ? $"Supervisor #{_number}" : $"Supervisor #{_number} '{Name}'";

    /// <summary>Forgets a run that ended; under <see cref="Gate"/>.</summary>
    internal void RunEnded(SupervisorRun run)
    {
        if (_run == run)
        {
            _run = null;
        }
    }

    /// <summary>Counts a restart made. Supervisor's thread.</summary>
    internal void CountRestart() => Interlocked.Increment(ref _restartCount);

    private void Send(SupervisorCommand command)
    {
        SupervisorRun? run;
        lock (Gate)
        {
            run = _run;
        }

        if (run is null || !run.TrySend(command))
        {
            command.Fail(new InvalidOperationException($"{this} is not running, so it cannot {command}."));
        }
    }
}
