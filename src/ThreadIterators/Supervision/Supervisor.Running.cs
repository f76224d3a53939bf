using System;
using System.Collections.Generic;
using System.Threading;

namespace ThreadIterators.Supervision;

// The supervisor's thread: one loop over its children's ends, its commands and its shutdown token. Everything that
// waits (a shutdown, a removal, the children a restart takes) is here; the bookkeeping is in SupervisorRun. A
// supervisor is an ordinary green thread built from the library's pieces: a watch per child into one mailbox of
// ThreadExits, a mailbox of commands, a Choice over the two and the run's cancellation token, and SendAfter for
// backoffs. Each run is a new SupervisorRun, the state of that run only.
//   1. Start. The initial specs are started in order in the thread's first turn: each factory is called on the
//      supervisor's thread (a factory that throws gives a body that throws, so its failure is a crash like any other),
//      and the body is spawned and watched. A dictionary from thread to child finds the child an exit message is about.
//   2. A child's end. A thread no longer in the dictionary (a child shut down or removed on purpose) is stale, and its
//      message ignored. The restart type decides (a temporary child is dropped; a transient one that ended normally
//      stays ended); then the intensity check: the restarts' timestamps, in the scheduler's TimeProvider, less those more
//      than a period old (one exactly a period old counts, as in OTP), and a restart that would make them more than
//      MaxRestarts is refused: every child is shut
//      down, in reverse start order, and the supervisor gives up, ending faulted. Otherwise the strategy gives the
//      group: its other running children are shut down in reverse start order, then the group is started in start
//      order, at once, or, with a backoff, when a SendAfter wake-up finds the restart due.
//      A child that ended by itself (a temporary one however it ended, a transient one normally) and is significant
//      shuts the supervisor down under AutoShutdown.AnySignificant, and so does the last significant one running or
//      waiting for a restart under AllSignificant: the same shutdown as for the run's token, ending normally (OTP's
//      auto_shutdown).
//   3. Shutdown of one child (a restart's group, a removal, the run's token, a give-up): cancel its token and wait for
//      its end (Ended, with its grace as the timeout), then Stop it and wait for its finally blocks. Only then is the
//      child forgotten, so a supervisor stopped meanwhile still stops it. One child at a time, in reverse start order;
//      a child supervisor's infinite grace makes the shutdown depth first.
//   4. Its own end. The finally block ends the run (commands still waiting fail with an exception naming the
//      supervisor), cancels the backoff timers still pending, and, if the thread ends without having shut its children
//      down (a stop, a fault), stops every running child without waiting. The run also watches its own thread with a
//      watch that observes nothing (IUnobservingTarget), so a run whose body never started is ended too, and the
//      supervisor's own fault still reaches whoever joins it, or UnobservedFault.
// A child's watch is claimed under its end's lock before the end decides whether the fault is unobserved, so a
// supervised crash makes no sentinel; and its message is sent after the end is decided and before joiners see it (the
// header of ThreadEnd.cs), so a restarted child that binds the mailbox its crashed predecessor left finds that
// predecessor already ended.
public sealed partial class Supervisor
{
    /// <summary>Begins a run, unless one is running.</summary>
    private IEnumerable<Event> NewRun(CancellationToken stop, out SupervisorRun run)
    {
        lock (Gate)
        {
            if (_run is { Ended: false, Thread: { } thread })
            {
                throw new InvalidOperationException($"{this} is already running, as {thread}; a supervisor runs on one thread at a time.");
            }

            // A run whose body never started is replaced: its body, if it ever starts, faults at once.
            _run = run = new SupervisorRun(this);
        }

        return Loop(run, stop);
    }

    private IEnumerable<Event> Loop(SupervisorRun run, CancellationToken stop)
    {
        run.Begin(GreenThread.Current!);
        var exits = run.Exits!;
        var choice = new Choice(exits.Recv(), run.Commands.Recv(), Event.WhenCanceled(stop));
        SupervisorCommand? inProgress = null;
        var shutDown = false;
        try
        {
            foreach (var spec in _initial)
            {
                run.Add(spec);
            }

            while (true)
            {
                yield return choice;
                if (choice.Index == 2)
                {
                    break;
                }

                if (choice.Index == 0)
                {
                    var exit = exits.Recv().Value;
                    if (run.OnExit(exit, out var giveUp, out var autoShutdown) is not { } slot)
                    {
                        if (autoShutdown)
                        {
                            // Its significant children have ended by themselves: it shuts down as for its token.
                            break;
                        }

                        continue;
                    }

                    if (giveUp)
                    {
                        foreach (var wait in ShutDown(run, run.AllRunningReversed()))
                        {
                            yield return wait;
                        }

                        shutDown = true;
                        var gaveUp = new SupervisorGaveUpException(this, exit, slot.Spec.Id, Options.MaxRestarts, Options.Period);
                        Interlocked.Increment(ref run.Scheduler.Counts.GiveUps);
                        Raise(GaveUp, new SupervisorGaveUpEventArgs(gaveUp));
                        throw gaveUp;
                    }

                    var group = run.GroupOf(slot);
                    if (group.Count > 1)
                    {
                        foreach (var wait in ShutDown(run, SupervisorRun.RunningReversed(group, slot)))
                        {
                            yield return wait;
                        }
                    }

                    if (run.Restart(slot, exit, group) is { } restarted)
                    {
                        Raise(Restarted, restarted);
                    }

                    continue;
                }

                var command = run.Commands.Recv().Value;
                if (!run.Take(command))
                {
                    continue;
                }

                inProgress = command;
                if (command.Add is { } spec)
                {
                    Add(run, command, spec);
                }
                else if (command.Remove is { } id)
                {
                    if (run.Find(id) is { } removed)
                    {
                        foreach (var wait in ShutDown(run, [removed]))
                        {
                            yield return wait;
                        }

                        run.Drop(removed);
                        command.Removed!.TrySetResult(true);
                    }
                    else
                    {
                        command.Removed!.TrySetResult(false);
                    }
                }
                else if (run.StartDue() is { } started)
                {
                    foreach (var restarted in started)
                    {
                        Raise(Restarted, restarted);
                    }
                }

                inProgress = null;
            }

            foreach (var wait in ShutDown(run, run.AllRunningReversed()))
            {
                yield return wait;
            }

            shutDown = true;
        }
        finally
        {
            run.End();
            run.CancelTimers();
            inProgress?.Fail(new InvalidOperationException($"{this} ended before it could {inProgress}."));
            if (!shutDown)
            {
                run.Abandon();
            }
        }
    }

    /// <summary>Starts a child a command added, and tells the caller.</summary>
    private static void Add(SupervisorRun run, SupervisorCommand command, ChildSpec spec)
    {
        GreenThread added;
        try
        {
            added = run.Add(spec);
        }
        catch (Exception exception)
        {
            command.Added!.TrySetException(exception);
            if (exception is ArgumentException)
            {
                return;
            }

            throw;
        }

        command.Added!.TrySetResult(added);
    }

    /// <summary>
    /// Shuts children down one at a time, in the order given: cancels a child's token and waits out its grace, then
    /// stops it and waits for its end. Its end is then no crash: the run forgets it.
    /// </summary>
    private IEnumerable<Event> ShutDown(SupervisorRun run, List<ChildSlot> slots)
    {
        foreach (var slot in slots)
        {
            if (slot.Thread is not { } thread)
            {
                continue;
            }

            var grace = slot.Spec.Shutdown;
            if (slot.Stopping is { } stopping && grace != TimeSpan.Zero && !thread.IsCompleted)
            {
                stopping.Cancel();
                yield return grace == Timeout.InfiniteTimeSpan ? thread.Ended : thread.Ended.WithTimeout(grace);
            }

            if (!thread.IsCompleted)
            {
                thread.Stop($"{this} shut it down{(slot.Stopping is null ? string.Empty : $" after its grace of {grace}")}");
            }

            yield return thread.Ended;
            run.Forget(slot);
        }
    }

    /// <summary>Raises a supervisor event; a handler that throws is written to standard error, as the scheduler's handlers are.</summary>
    private void Raise<TArgs>(EventHandler<TArgs>? handler, TArgs args)
    {
        if (handler is null)
        {
            return;
        }

        try
        {
            handler(this, args);
        }
        catch (Exception exception)
        {
            Console.Error.WriteLine($"ThreadIterators: a handler of {this} threw on {args}: {exception}");
        }
    }
}
