using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// An upper bound of <see cref="Stopwatch.GetTimestamp"/> read from <see cref="Environment.TickCount64"/>: about five
/// times cheaper to read (4 ns against 25 ns on a Linux VM), and never behind the precise clock, at the price of
/// running ahead of it by up to the coarse clock's tick plus two milliseconds. For the deadlines of timeouts, which are
/// read at every wait that parks and must never fire early: a timeout counted from it fires up to that much late.
/// </summary>
/// <remarks>
/// <para>
/// Linux only, where <see cref="Environment.TickCount64"/> is <c>CLOCK_MONOTONIC_COARSE</c>, the precise monotonic
/// clock as of the kernel's last tick: the two never drift apart, so the gap between them stays in a range one tick
/// wide. Elsewhere (another tick source, which may drift) <see cref="IsReady"/> stays false and callers read the
/// precise clock.
/// </para>
/// <para>
/// Calibrated once per process, on a thread of its own started by the first system timer queue (no worker waits for
/// it): it watches the coarse clock step a few times, taking the smallest step as the tick and the gap
/// just after a step as the bottom of the range. Until then callers read the precise clock. The queue's thread then
/// checks the bound at each wake (<see cref="Check"/>) and widens it if the precise clock was ever found ahead.
/// </para>
/// </remarks>
internal static class CoarseClock
{
    /// <summary>How many steps of the coarse clock the calibration watches.</summary>
    private const int Steps = 3;

    /// <summary>Precise units per millisecond, or 0 if the precise frequency is not a whole number of them.</summary>
    private static readonly long s_unitsPerMillisecond = Stopwatch.Frequency % 1000 == 0 ? Stopwatch.Frequency / 1000 : 0;

    /// <summary>Added to the coarse milliseconds in precise units, an upper bound of the gap; 0 until calibrated.</summary>
    private static long s_offset;

    /// <summary>1 once a thread has begun calibrating.</summary>
    private static int s_calibrating;

    /// <summary>Gets a value indicating whether <see cref="Now"/> may be read.</summary>
    internal static bool IsReady => Volatile.Read(ref s_offset) != 0;

    /// <summary>Gets a timestamp in <see cref="Stopwatch"/> units at least the precise clock's; only once <see cref="IsReady"/>.</summary>
    internal static long Now => (Environment.TickCount64 * s_unitsPerMillisecond) + Volatile.Read(ref s_offset);

    /// <summary>
    /// Starts the calibration, once per process, on a short-lived thread of its own, which sleeps while it watches
    /// (up to four ticks: about 16 ms on Linux); nothing waits for it.
    /// </summary>
    internal static void StartCalibrating()
    {
        if (!OperatingSystem.IsLinux() || s_unitsPerMillisecond == 0 || Volatile.Read(ref s_calibrating) != 0 || Interlocked.Exchange(ref s_calibrating, 1) != 0)
        {
            return;
        }

        new Thread(Calibrate) { IsBackground = true, Name = "ThreadIterators clock calibration" }.Start();
    }

    private static void Calibrate()
    {

        var smallestStep = long.MaxValue;
        var smallestGap = long.MaxValue;
        var last = WaitForStep(Environment.TickCount64, out _);
        for (var i = 0; i < Steps; i++)
        {
            var next = WaitForStep(last, out var gap);
            smallestStep = Math.Min(smallestStep, next - last);
            smallestGap = Math.Min(smallestGap, gap);
            last = next;
        }

        // The gap just after a step is the bottom of its range (plus the poll's delay, which only widens the bound);
        // a tick above it is the top. Two milliseconds more: one for TickCount64's truncation to whole milliseconds,
        // and one because a step seen in whole milliseconds reads a millisecond short of the tick when the ticks fall
        // on millisecond boundaries with the least jitter (a 4 ms tick read as a 3 ms step left the bound tens of
        // nanoseconds behind the precise clock; CoarseClockTests caught it).
        Volatile.Write(ref s_offset, Math.Max(1, smallestGap + ((smallestStep + 2) * s_unitsPerMillisecond)));
    }

    /// <summary>Widens the bound if the precise clock is ahead of it now. The system timer queue's thread, at each wake.</summary>
    internal static void Check()
    {
        var offset = Volatile.Read(ref s_offset);
        if (offset == 0)
        {
            return;
        }

        var gap = Stopwatch.GetTimestamp() - (Environment.TickCount64 * s_unitsPerMillisecond);
        if (gap > offset)
        {
            // Not seen on Linux; a bound that was wrong would fire timeouts early by the difference, so take the gap
            // found plus a tick's worth of the calibration's margin.
            Interlocked.CompareExchange(ref s_offset, gap + s_unitsPerMillisecond, offset);
        }
    }

    /// <summary>Sleeps until the coarse clock moves past <paramref name="from"/>; returns its new value and the gap then.</summary>
    private static long WaitForStep(long from, out long gap)
    {
        while (true)
        {
            var coarse = Environment.TickCount64;
            var precise = Stopwatch.GetTimestamp();
            if (coarse != from)
            {
                gap = precise - (coarse * s_unitsPerMillisecond);
                return coarse;
            }

            Thread.Sleep(1);
        }
    }
}
