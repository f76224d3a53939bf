using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// The work a latency client does with each message it receives, standing in for what a chat server's connection
/// does with a broadcast (format it, write it out): steps of a xorshift generator, a chain of dependent operations
/// the JIT cannot fold, the same code on both implementations.
/// </summary>
internal static class LatencyWork
{
    /// <summary>Advances <paramref name="state"/> (never zero) by <paramref name="steps"/> xorshift steps.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static ulong Spin(ulong state, int steps)
    {
        for (var i = 0; i < steps; i++)
        {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
        }

        return state;
    }

    /// <summary>Measures what <paramref name="steps"/> steps cost on this machine now, in nanoseconds (the best of a few tries).</summary>
    public static double Nanoseconds(int steps)
    {
        if (steps == 0)
        {
            return 0;
        }

        var best = double.MaxValue;
        var state = 1UL;
        var calls = 1 + (2_000_000 / steps);
        for (var attempt = 0; attempt < 5; attempt++)
        {
            var start = Stopwatch.GetTimestamp();
            for (var i = 0; i < calls; i++)
            {
                state = Spin(state, steps);
            }

            best = System.Math.Min(best, Stopwatch.GetElapsedTime(start).TotalNanoseconds / calls);
        }

        return state == 0 ? double.NaN : best;
    }
}
