using System.Threading;

namespace ThreadIterators;

// The scheduler's side of scheduled sends (ScheduledSends/): a token its disposal cancels, for the sends that wait
// for room in a full bounded target. Any thread.
public sealed partial class Scheduler
{
    /// <summary>
    /// Cancelled by <see cref="Dispose()"/>: ends the waits for room of one-shot sends whose bounded target was full
    /// when they fired. Made by the first such wait, since most schedulers never have one. Never disposed: it has no
    /// timer and nobody asks for its wait handle.
    /// </summary>
    private CancellationTokenSource? _timerSendsStopped;

    /// <summary>
    /// Gets a token cancelled when the scheduler is disposed, for the one-shot sends that wait for room in a full
    /// bounded target. Made on first use; any thread.
    /// </summary>
    internal CancellationToken TimerSendsStopped
    {
        get
        {
            var source = Volatile.Read(ref _timerSendsStopped);
            if (source is null)
            {
                var made = new CancellationTokenSource();
                source = Interlocked.CompareExchange(ref _timerSendsStopped, made, null) ?? made;
                if (source != made)
                {
                    made.Dispose();
                }

                // Dispose marks the scheduler stopping before it reads the field; this thread wrote the field (a full
                // fence) before reading the mark: one of the two sees the other, so the token is never left uncancelled.
                if (IsStopping)
                {
                    source.Cancel();
                }
            }

            return source.Token;
        }
    }

    /// <summary>Cancels <see cref="_timerSendsStopped"/> if it was made; called by <see cref="Dispose()"/> after the timers stopped.</summary>
    private void StopTimerSends() => Volatile.Read(ref _timerSendsStopped)?.Cancel();
}
