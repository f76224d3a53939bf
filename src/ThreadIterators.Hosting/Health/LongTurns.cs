using System;
using System.Collections.Generic;

namespace ThreadIterators.Hosting;

/// <summary>
/// The long turns the scheduler has reported (<see cref="Scheduler.LongTurn"/>, raised once per turn while it goes
/// on), kept for the health check until it finds their threads no longer running. Any thread.
/// </summary>
internal sealed class LongTurns
{
    private readonly object _gate = new();
    private readonly Dictionary<int, (GreenThread Thread, TimeSpan Duration, DateTimeOffset At)> _byWorker = [];

    internal void Reported(LongTurnEventArgs turn)
    {
        lock (_gate)
        {
            _byWorker[turn.WorkerIndex] = (turn.Thread, turn.Duration, DateTimeOffset.UtcNow);
        }
    }

    internal List<(int Worker, GreenThread Thread, TimeSpan Duration, DateTimeOffset At)> Snapshot()
    {
        lock (_gate)
        {
            var list = new List<(int, GreenThread, TimeSpan, DateTimeOffset)>(_byWorker.Count);
            foreach (var (worker, turn) in _byWorker)
            {
                list.Add((worker, turn.Thread, turn.Duration, turn.At));
            }

            return list;
        }
    }

    /// <summary>Forgets a worker's long turn, found over; unless a newer one has been reported for it since.</summary>
    internal void Over(int worker, GreenThread thread, DateTimeOffset at)
    {
        lock (_gate)
        {
            if (_byWorker.TryGetValue(worker, out var turn) && turn.Thread == thread && turn.At == at)
            {
                _byWorker.Remove(worker);
            }
        }
    }
}
