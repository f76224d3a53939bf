using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void Sleep_ManyThreads_NoneWakesBeforeItsDeadline_AndOneWorkerWakesThemInDeadlineOrder()
    {
        var durationsMs = new[] { 40, 5, 25, 0, 15, 35, 10, 30, 20, 1 };
        var woken = new ConcurrentQueue<(int Index, long Deadline, long WokeAt)>();
        Run(Root());

        Assert.Equal(durationsMs.Length - 1, woken.Count);
        Assert.All(woken, w => Assert.True(w.WokeAt >= w.Deadline, $"sleeper {w.Index} woke before its deadline"));
        if (WorkerCount == 1)
        {
            var order = woken.Select(w => w.Index).ToList();
            var byDeadline = woken.OrderBy(w => w.Deadline).Select(w => w.Index).ToList();
            Assert.Equal(byDeadline, order);
        }

        IEnumerable<Event> Root()
        {
            // One sleep first, so the timer thread is started and the sleep path compiled before the measured
            // sleepers take their timestamps: each one's deadline then follows its timestamp by microseconds.
            yield return Event.Sleep(TimeSpan.FromMilliseconds(1));
            var sleepers = new List<GreenThread>();
            for (var i = 0; i < durationsMs.Length; i++)
            {
                if (durationsMs[i] > 0)
                {
                    sleepers.Add(Scheduler.Spawn(Sleeper(i, TimeSpan.FromMilliseconds(durationsMs[i]))));
                }
            }

            foreach (var sleeper in sleepers)
            {
                yield return sleeper.Exited;
            }
        }

        IEnumerable<Event> Sleeper(int index, TimeSpan duration)
        {
            // The sleep's deadline is taken when it parks, a little after this: so this is a lower bound of it,
            // and waking before it would be waking early.
            var yieldedAt = Stopwatch.GetTimestamp();
            yield return Event.Sleep(duration);
            var wokeAt = Stopwatch.GetTimestamp();
            var earliest = yieldedAt + (long)Math.Ceiling(duration.TotalSeconds * Stopwatch.Frequency);
            woken.Enqueue((index, earliest, wokeAt));
        }
    }

    [Fact]
    public void Sleep_InvalidDuration_Throws()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => Event.Sleep(TimeSpan.FromTicks(-1)));
        var tooLong = Assert.Throws<ArgumentOutOfRangeException>(() => Event.Sleep(Event.MaxSleep + TimeSpan.FromMilliseconds(1)));
        Assert.Contains("about 24.8 days", tooLong.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentOutOfRangeException>(() => Event.Sleep(TimeSpan.MaxValue));
    }

    [Fact]
    public void Sleep_Zero_GivesUpTheTurn_AndOneWorkerAlternatesTwoThreads() => TwoThreadsGivingUpTheirTurns(Event.Sleep(TimeSpan.Zero));

    [Fact]
    public void Yield_TwoThreads_BothProgress_AndOneWorkerAlternatesThem() => TwoThreadsGivingUpTheirTurns(Event.Yield);

    /// <summary>Two threads each log three steps, yielding <paramref name="giveUp"/> after each: both finish, and one worker alternates them.</summary>
    private void TwoThreadsGivingUpTheirTurns(Event giveUp)
    {
        var log = new ConcurrentQueue<string>();
        Run(Root());

        Assert.Equal(6, log.Count);
        if (WorkerCount == 1)
        {
            // Which starts is the policy's choice (work stealing runs the newest spawn first); from then on they
            // alternate.
            var first = log.First()[..1];
            var second = first == "a" ? "b" : "a";
            Assert.Equal([first + "0", second + "0", first + "1", second + "1", first + "2", second + "2"], log);
        }

        IEnumerable<Event> Root()
        {
            var a = Scheduler.Spawn(Steps("a"));
            var b = Scheduler.Spawn(Steps("b"));
            yield return a.Exited;
            yield return b.Exited;
        }

        IEnumerable<Event> Steps(string name)
        {
            for (var i = 0; i < 3; i++)
            {
                log.Enqueue(name + i);
                yield return giveUp;
            }
        }
    }

    [Fact]
    public void BusyThread_NeverParking_DoesNotStarveOthersOnItsWorker()
    {
        // A thread that only yields to itself through a mailbox it feeds would run forever without the step
        // budget; the other thread must still finish while it spins.
        var stop = false;
        var spinner = Scheduler.Spawn(SpinUntilStopped(), "spinner");
        Run(Finite(), "finite");
        stop = true;
        Join(spinner);

        IEnumerable<Event> SpinUntilStopped()
        {
            var self = new Mailbox<int>();
            while (!System.Threading.Volatile.Read(ref stop))
            {
                self.Send(0);
                yield return self.Recv();
            }
        }

        static IEnumerable<Event> Finite()
        {
            yield return Event.Yield;
        }
    }
}
