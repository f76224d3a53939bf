using System;
using System.Collections.Generic;

namespace ThreadIterators;

/// <summary><see cref="ExplorationStrategy.Random"/>: every runnable thread, and a pending timer, equally likely at each step.</summary>
internal sealed class RandomStrategy(int seed) : IScheduleStrategy
{
    private readonly Random _random = new(seed);

    public int Choose(List<GreenThread> ready, bool timerPending, int step)
    {
        var pick = _random.Next(ready.Count + (timerPending ? 1 : 0));
        return pick == ready.Count ? -1 : pick;
    }

    public void Yielded(GreenThread thread)
    {
    }

    public int ChooseBranch(int count) => _random.Next(count);
}
