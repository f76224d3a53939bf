using System;
using System.Collections.Generic;

namespace ThreadIterators.Testing;

/// <summary><see cref="ExplorationStrategy.Random"/>: every runnable thread, a pending timer, and (<see cref="OutsideWork.Anytime"/>) each thread's awaited outside completion, equally likely at each step.</summary>
internal sealed class RandomStrategy(int seed) : IScheduleStrategy
{
    private readonly Random _random = new(seed);

    public int Choose(List<GreenThread> ready, List<GreenThread> outside, bool timerPending, int step)
    {
        var enabled = ready.Count + outside.Count;
        var pick = _random.Next(enabled + (timerPending ? 1 : 0));
        return pick == enabled ? -1 : pick;
    }

    public void Yielded(GreenThread thread)
    {
    }

    public int ChooseBranch(int count) => _random.Next(count);
}
