using System;
using System.Collections.Generic;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Supervision;

/// <summary>
/// One run of a <see cref="Supervisor"/>: its thread, its children and their restarts, from the thread's start to its
/// end. A supervisor restarted by its own supervisor begins a new run with its initial children, as OTP's does.
/// </summary>
/// <remarks>
/// Owned by the supervisor's thread, except what other threads may touch under the supervisor's lock: the commands
/// waiting (<see cref="_waiting"/>), <see cref="Thread"/>, <see cref="Ended"/>, the list of children and each one's
/// thread. It watches its own thread, without observing its fault, so that commands waiting are failed even if the
/// thread never ran.
/// </remarks>
internal sealed partial class SupervisorRun : IMessageTarget<ThreadExit>, IUnobservingTarget
{
    private readonly Supervisor _supervisor;

    /// <summary>Commands sent and not yet taken; guarded by the supervisor's lock.</summary>
    private readonly List<SupervisorCommand> _waiting = [];

    /// <summary>The children in start order.</summary>
    private readonly List<ChildSlot> _slots = [];

    /// <summary>The running children by thread, to find the child an exit message is about.</summary>
    private readonly Dictionary<GreenThread, ChildSlot> _byThread = [];

    /// <summary>When the restarts within the period were made (time provider timestamps), oldest first.</summary>
    private readonly Queue<long> _restarts = new();

    /// <summary>Restarts waiting out their backoff, in the order they were decided.</summary>
    private readonly List<PendingRestart> _pending = [];

    /// <summary>The timers of the delayed restarts, cancelled when the run ends.</summary>
    private readonly List<IScheduledSend> _timers = [];

    private Scheduler? _scheduler;

    private TimeProvider? _clock;

    internal SupervisorRun(Supervisor supervisor)
    {
        _supervisor = supervisor;
        Commands = new Mailbox<SupervisorCommand>($"{supervisor} commands") { OutlivesReceiver = true };
    }

    /// <summary>Gets the scheduler the supervisor's thread runs on; set as the run starts.</summary>
    internal Scheduler Scheduler => _scheduler!;

    /// <summary>Where commands and the backoff timers' wake-ups go. It outlives the thread, so that a timer firing as the run ends is no dead letter.</summary>
    internal Mailbox<SupervisorCommand> Commands { get; }

    /// <summary>Where the children's watches send their ends; made by <see cref="Begin"/>.</summary>
    internal Mailbox<ThreadExit>? Exits { get; private set; }

    /// <summary>The supervisor's thread, once known. Guarded by the supervisor's lock.</summary>
    internal GreenThread? Thread { get; private set; }

    /// <summary>The run has ended (or is ending): commands are refused. Guarded by the supervisor's lock.</summary>
    internal bool Ended { get; private set; }

    /// <summary>Whether a watch on <see cref="Thread"/> has been placed.</summary>
    private bool Watched { get; set; }

    private object Gate => _supervisor.Gate;

    /// <summary>Records the thread that will run this run, before it runs; watches it. Spawning thread.</summary>
    internal void Attach(GreenThread thread)
    {
        lock (Gate)
        {
            if (Thread is not null)
            {
                return;
            }

            Thread = thread;
            Watched = true;
        }

        thread.Watch(this);
    }

    /// <summary>The first step of the run, on its own thread: checks it is the supervisor's current run and sets up.</summary>
    internal void Begin(GreenThread self)
    {
        var watch = false;
        lock (Gate)
        {
            if (_supervisor.CurrentRun != this || (Thread is not null && Thread != self))
            {
                throw new InvalidOperationException($"{_supervisor} is already running as {_supervisor.CurrentRun?.Thread?.ToString() ?? "another thread"}; {self} ran a body of it that a later Run() replaced. A supervisor runs on one thread at a time.");
            }

            Thread = self;
            if (!Watched)
            {
                Watched = watch = true;
            }
        }

        if (watch)
        {
            self.Watch(this);
        }

        _scheduler = self.Scheduler;
        _clock = _scheduler.TimeProvider;
        // Outlives its receiver, so the exits still queued when the run ends (children it shut down, one that ended as
        // the shutdown began, children stopped without a wait after a fault) are dropped with it, as an OTP supervisor's
        // mailbox is, not handed to the dead letters: they were the supervisor's own business, and it is gone.
        Exits = new Mailbox<ThreadExit>($"{_supervisor} exits") { OutlivesReceiver = true };
    }

    /// <summary>Queues a command, unless the run is not accepting them. Any thread.</summary>
    internal bool TrySend(SupervisorCommand command)
    {
        lock (Gate)
        {
            if (Thread is null || Ended)
            {
                return false;
            }

            _waiting.Add(command);
            Commands.Send(command);
            return true;
        }
    }

    /// <summary>Takes a command the loop received: false if it was failed meanwhile (it is then skipped). Supervisor's thread.</summary>
    internal bool Take(SupervisorCommand command)
    {
        if (command == SupervisorCommand.Wake)
        {
            return true;
        }

        lock (Gate)
        {
            return _waiting.Remove(command);
        }
    }

    /// <summary>Ends the run: refuses commands from now on and fails those waiting. Idempotent; the run's thread as it ends, or the watch after.</summary>
    internal void End()
    {
        SupervisorCommand[] failed;
        lock (Gate)
        {
            if (Ended)
            {
                return;
            }

            Ended = true;
            failed = [.. _waiting];
            _waiting.Clear();
            _supervisor.RunEnded(this);
        }

        foreach (var command in failed)
        {
            command.Fail(new InvalidOperationException($"{_supervisor} ended before it could {command}."));
        }
    }

    /// <summary>Snapshots the children; under the supervisor's lock.</summary>
    internal SupervisedChild[] Snapshot()
    {
        var children = new SupervisedChild[_slots.Count];
        for (var i = 0; i < children.Length; i++)
        {
            var slot = _slots[i];
            children[i] = new SupervisedChild(slot.Spec, slot.Thread, slot.Restarts);
        }

        return children;
    }

    /// <summary>Adds a child at the end of the start order and starts it. Supervisor's thread.</summary>
    internal GreenThread Add(ChildSpec spec)
    {
        _supervisor.CheckSignificance(spec, _supervisor.Options.AutoShutdown, nameof(spec));
        foreach (var slot in _slots)
        {
            if (slot.Spec.Id == spec.Id)
            {
                throw new ArgumentException($"{_supervisor} already has a child with the id '{spec.Id}'.", nameof(spec));
            }
        }

        var added = new ChildSlot(spec, $"{_supervisor.Name ?? "supervisor"}/{spec.Id}");
        lock (Gate)
        {
            _slots.Add(added);
        }

        return Start(added);
    }

    /// <summary>Finds a child by id, or null. Supervisor's thread.</summary>
    internal ChildSlot? Find(string id)
    {
        foreach (var slot in _slots)
        {
            if (slot.Spec.Id == id)
            {
                return slot;
            }
        }

        return null;
    }

    /// <summary>Starts a child: a fresh body from its factory (a factory that throws gives a body that throws), spawned and watched. Supervisor's thread.</summary>
    internal GreenThread Start(ChildSlot slot)
    {
        var spec = slot.Spec;
        IEnumerable<Event> body;
        try
        {
            if (spec.StartWithToken is { } withToken)
            {
                if (slot.Stopping is null || !slot.Stopping.TryReset())
                {
                    slot.Stopping?.Dispose();
                    slot.Stopping = new CancellationTokenSource();
                }

                body = withToken(slot.Stopping.Token);
            }
            else
            {
                body = spec.StartPlain!();
            }

            if (body is null)
            {
                throw new InvalidOperationException($"The factory of {spec} of {_supervisor} returned null instead of a body.");
            }
        }
        catch (Exception exception)
        {
            // As if the child had faulted at once: its end is handled, and counted, like any other.
            body = Throw(exception);
        }

        GreenThread thread;
        try
        {
            thread = _scheduler!.Spawn(body, slot.ThreadName);
        }
        catch (ObjectDisposedException disposed) when (_scheduler!.IsStopping)
        {
            // The scheduler's disposal is ending every thread, this one too: end as a stop does, not with a fault to report.
            throw new OperationCanceledException($"{_supervisor} could not start {spec}: {disposed.Message}", disposed);
        }

        _byThread[thread] = slot;
        slot.StartedAt = _clock!.GetTimestamp();
        slot.Pending = null;
        lock (Gate)
        {
            slot.Thread = thread;
        }

        slot.Watch = thread.Watch(Exits!);
        return thread;
    }

    /// <summary>
    /// Takes a child being shut down out of the run's bookkeeping, so that its end is not taken for a crash: the
    /// watch is removed (or its message, already sent, is stale). Supervisor's thread.
    /// </summary>
    internal void Forget(ChildSlot slot)
    {
        if (slot.Thread is { } thread)
        {
            _byThread.Remove(thread);
        }

        slot.Watch?.Remove();
        slot.Watch = null;
        lock (Gate)
        {
            slot.Thread = null;
        }
    }

    /// <summary>Removes a child from the supervisor for good. Supervisor's thread.</summary>
    internal void Drop(ChildSlot slot)
    {
        Forget(slot);
        slot.Removed = true;
        slot.Pending?.Slots.Remove(slot);
        slot.Pending = null;
        slot.Stopping?.Dispose();
        slot.Stopping = null;
        lock (Gate)
        {
            _slots.Remove(slot);
        }
    }

    /// <summary>Cancels the backoff timers still pending, so that they hold nothing once the run has ended. Supervisor's thread, in its <c>finally</c> block.</summary>
    internal void CancelTimers()
    {
        foreach (var timer in _timers)
        {
            timer.Cancel();
        }

        _timers.Clear();
    }

    /// <summary>
    /// As the run's thread ends by a stop (its own supervisor's, a link's, its scheduler's disposal) rather than a
    /// shutdown: stops every child still running, in reverse start order, without waiting. Supervisor's thread, in
    /// its <c>finally</c> block.
    /// </summary>
    internal void Abandon()
    {
        foreach (var slot in AllRunningReversed())
        {
            var thread = slot.Thread!;
            Forget(slot);

            // The stop first, so that it, not the token, ends the child; the token then cancels whatever else used it.
            thread.Stop($"{_supervisor} ended without shutting it down");
            slot.Stopping?.Cancel();
        }
    }

    private static IEnumerable<Event> Throw(Exception exception)
    {
        ExceptionDispatchInfo.Throw(exception);
        yield break;
    }

    // The watch on the run's own thread: its end, however it comes, ends the run. Never refuses; observes nothing.
    bool IMessageTarget<ThreadExit>.TrySend(ThreadExit message)
    {
        End();
        return true;
    }

    void IMessageTarget<ThreadExit>.Send(ThreadExit message) => End();

    ValueTask IMessageTarget<ThreadExit>.SendAsync(ThreadExit message, CancellationToken cancellationToken)
    {
        End();
        return ValueTask.CompletedTask;
    }

    Event IMessageTarget<ThreadExit>.Put(ThreadExit message) => throw new NotSupportedException($"{this} takes only the end of its own thread.");

    /// <inheritdoc/>
    public override string ToString() => $"run of {_supervisor}";
}
