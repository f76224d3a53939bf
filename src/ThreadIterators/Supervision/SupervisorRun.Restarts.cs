using System;
using System.Collections.Generic;
using System.Threading;

namespace ThreadIterators.Supervision;

// Restarts: what a child's exit does under the strategy, the restart intensity, and restarts that wait for a
// backoff. The supervisor's own green thread only.
internal sealed partial class SupervisorRun
{
    /// <summary>
    /// Works out what a child's end means: null if the message is stale (a child shut down, or removed, on purpose) or
    /// the child is not restarted; otherwise the child, with <paramref name="giveUp"/> set if its restart would exceed
    /// the intensity. Supervisor's thread.
    /// </summary>
    internal ChildSlot? OnExit(ThreadExit exit, out bool giveUp, out bool autoShutdown)
    {
        giveUp = false;
        autoShutdown = false;
        if (!_byThread.Remove(exit.Thread, out var slot))
        {
            return null;
        }

        Forget(slot);
        switch (slot.Spec.Restart)
        {
            case RestartType.Temporary:
                Drop(slot);
                autoShutdown = EndedByItself(slot);
                return null;
            case RestartType.Transient when !exit.IsAbnormal:
                autoShutdown = EndedByItself(slot);
                return null;
        }

        if (!TryCountRestart())
        {
            giveUp = true;
            return slot;
        }

        if (_supervisor.Options.Backoff is { } backoff && _clock!.GetElapsedTime(slot.StartedAt) >= backoff.ResetAfter)
        {
            slot.InARow = 0;
        }

        slot.InARow++;
        return slot;
    }

    /// <summary>
    /// Whether the end by itself of <paramref name="slot"/>'s child (not restarted, not shut down) shuts the supervisor
    /// down: a significant child under <see cref="AutoShutdown.AnySignificant"/>, or the last significant one still
    /// running or waiting for a restart under <see cref="AutoShutdown.AllSignificant"/>. Supervisor's thread.
    /// </summary>
    private bool EndedByItself(ChildSlot slot)
    {
        if (!slot.Spec.Significant)
        {
            return false;
        }

        if (_supervisor.Options.AutoShutdown == AutoShutdown.AnySignificant)
        {
            return true;
        }

        foreach (var other in _slots)
        {
            if (other != slot && !other.Removed && other.Spec.Significant && (other.Thread is not null || other.Pending is not null))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>The children a restart of <paramref name="slot"/> takes, in start order, by the strategy. Supervisor's thread.</summary>
    internal List<ChildSlot> GroupOf(ChildSlot slot)
    {
        var index = _slots.IndexOf(slot);
        var from = _supervisor.Options.Strategy switch
        {
            SupervisionStrategy.OneForAll => 0,
            SupervisionStrategy.RestForOne => index,
            _ => -1,
        };

        if (from < 0)
        {
            return [slot];
        }

        var group = new List<ChildSlot>(_slots.Count - from);
        for (var i = from; i < _slots.Count; i++)
        {
            group.Add(_slots[i]);
        }

        return group;
    }

    /// <summary>
    /// Starts a restart's children now, or schedules them for after the backoff; returns the event to raise when they
    /// have started, or null if they wait. Temporary children of the group, shut down by it, are dropped. Supervisor's thread.
    /// </summary>
    internal ChildRestartedEventArgs? Restart(ChildSlot slot, ThreadExit exit, List<ChildSlot> group)
    {
        group.RemoveAll(static member => member.Removed);
        for (var i = group.Count - 1; i >= 0; i--)
        {
            if (group[i] != slot && group[i].Spec.Restart == RestartType.Temporary)
            {
                Drop(group[i]);
                group.RemoveAt(i);
            }
        }

        var delay = _supervisor.Options.Backoff?.DelayFor(slot.InARow) ?? TimeSpan.Zero;
        if (delay == TimeSpan.Zero)
        {
            return StartGroup(slot.Spec.Id, exit, group, delay);
        }

        var pending = new PendingRestart(slot.Spec.Id, exit, group, _clock!.GetTimestamp() + (long)(delay.TotalSeconds * _clock.TimestampFrequency), delay);
        foreach (var member in group)
        {
            member.Pending?.Slots.Remove(member);
            member.Pending = pending;
        }

        _pending.Add(pending);
        _timers.RemoveAll(static timer => timer.IsSent || timer.IsCanceled);
        _timers.Add(_scheduler!.SendAfter(Commands, SupervisorCommand.Wake, delay));
        return null;
    }

    /// <summary>Starts the delayed restarts that are due, in the order they were decided; returns the events to raise. Supervisor's thread.</summary>
    internal List<ChildRestartedEventArgs>? StartDue()
    {
        List<ChildRestartedEventArgs>? started = null;
        var now = _clock!.GetTimestamp();
        for (var i = 0; i < _pending.Count; i++)
        {
            var pending = _pending[i];
            if (pending.DueAt > now)
            {
                continue;
            }

            _pending.RemoveAt(i--);
            var group = pending.Slots.FindAll(member => member.Pending == pending && !member.Removed);
            (started ??= []).Add(StartGroup(pending.ChildId, pending.Exit, group, pending.Delay));
        }

        return started;
    }

    /// <summary>The running children of <paramref name="group"/> but <paramref name="except"/>, in reverse start order: those a restart shuts down.</summary>
    internal static List<ChildSlot> RunningReversed(List<ChildSlot> group, ChildSlot? except)
    {
        var running = new List<ChildSlot>(group.Count);
        for (var i = group.Count - 1; i >= 0; i--)
        {
            if (group[i] != except && group[i].Thread is not null)
            {
                running.Add(group[i]);
            }
        }

        return running;
    }

    /// <summary>Every running child, in reverse start order.</summary>
    internal List<ChildSlot> AllRunningReversed() => RunningReversed(_slots, except: null);

    /// <summary>
    /// The intensity check: counts a restart if it is within <see cref="SupervisorOptions.MaxRestarts"/> in the period.
    /// A restart exactly a period old still counts, as OTP's supervisor keeps one while it is no more than a period old.
    /// </summary>
    private bool TryCountRestart()
    {
        var options = _supervisor.Options;
        var now = _clock!.GetTimestamp();
        while (_restarts.TryPeek(out var oldest) && _clock.GetElapsedTime(oldest, now) > options.Period)
        {
            _restarts.Dequeue();
        }

        if (_restarts.Count >= options.MaxRestarts)
        {
            return false;
        }

        _restarts.Enqueue(now);
        return true;
    }

    private ChildRestartedEventArgs StartGroup(string childId, ThreadExit exit, List<ChildSlot> group, TimeSpan delay)
    {
        // Counted first, so that the children see it counted, as does anyone they tell that they started.
        _supervisor.CountRestart();
        Interlocked.Increment(ref _scheduler!.Counts.Restarts);
        var ids = new string[group.Count];
        for (var i = 0; i < group.Count; i++)
        {
            var member = group[i];
            ids[i] = member.Spec.Id;
            if (member.Thread is null)
            {
                member.Restarts++;
                Start(member);
            }
        }

        return new ChildRestartedEventArgs(childId, exit, ids, delay);
    }
}
