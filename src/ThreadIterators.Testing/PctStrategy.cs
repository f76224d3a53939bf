using System;
using System.Collections.Generic;

namespace ThreadIterators.Testing;

/// <summary>
/// <see cref="ExplorationStrategy.Pct"/>: a priority per thread, drawn as it first becomes runnable (a random place in
/// the order), the highest runnable always runs, and at d - 1 change points, steps drawn from 1 to the expected length
/// of a run, the thread about to run drops below every other. The timer is one more participant with a priority of
/// its own, so firing it early is explored as well; under <see cref="OutsideWork.Anytime"/> a thread waiting on outside
/// work is enabled with its own priority, standing for taking its completion.
/// </summary>
internal sealed class PctStrategy : IScheduleStrategy
{
    /// <summary>Stands for "fire the earliest timer" in <see cref="_order"/>.</summary>
    private static readonly object s_timer = new();

    private readonly Random _random;

    /// <summary>Participants from highest priority to lowest.</summary>
    private readonly List<object> _order = [];

    private readonly HashSet<object> _known = [];

    private readonly HashSet<int> _changePoints = [];

    internal PctStrategy(int seed, int depth, int expectedSteps)
    {
        _random = new Random(seed);
        var steps = Math.Max(expectedSteps, depth);
        while (_changePoints.Count < Math.Min(depth - 1, steps))
        {
            _changePoints.Add(_random.Next(1, steps + 1));
        }
    }

    public int Choose(List<GreenThread> ready, List<GreenThread> outside, bool timerPending, int step)
    {
        foreach (var thread in ready)
        {
            Know(thread);
        }

        foreach (var thread in outside)
        {
            Know(thread);
        }

        if (timerPending)
        {
            Know(s_timer);
        }

        var pick = Highest(ready, outside, timerPending);
        if (_changePoints.Contains(step))
        {
            _order.Remove(pick);
            _order.Add(pick);
            pick = Highest(ready, outside, timerPending);
        }

        if (pick == s_timer)
        {
            return -1;
        }

        var index = ready.IndexOf((GreenThread)pick);
        return index >= 0 ? index : ready.Count + outside.IndexOf((GreenThread)pick);
    }

    /// <summary>A thread that yields drops below every other, as Coyote's PCT does, so a wait that polls cannot starve the thread it polls for.</summary>
    public void Yielded(GreenThread thread)
    {
        if (_order.Remove(thread))
        {
            _order.Add(thread);
        }
    }

    /// <summary>A choice's branch is data, not a thread's priority: drawn uniformly, as Coyote's PCT draws its random booleans.</summary>
    public int ChooseBranch(int count) => _random.Next(count);

    private void Know(object participant)
    {
        if (_known.Add(participant))
        {
            _order.Insert(_random.Next(_order.Count + 1), participant);
        }
    }

    private object Highest(List<GreenThread> ready, List<GreenThread> outside, bool timerPending)
    {
        foreach (var participant in _order)
        {
            if ((participant == s_timer && timerPending) || (participant is GreenThread thread && (ready.Contains(thread) || outside.Contains(thread))))
            {
                return participant;
            }
        }

        throw new InvalidOperationException("No participant is enabled; the controller never asks then.");
    }
}
