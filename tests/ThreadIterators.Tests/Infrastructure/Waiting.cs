using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators.Tests;

/// <summary>Waits on the thing itself, never for a fixed time: spins until a condition holds, and fails loudly after a generous timeout.</summary>
internal static class Waiting
{
    /// <summary>How long any wait in a test may take before the test fails; generous, since a hang is the failure.</summary>
    internal static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    /// <summary>Spins until <paramref name="condition"/> holds; fails with "Timed out waiting until <paramref name="what"/>" otherwise.</summary>
    internal static void Until(Func<bool> condition, string what) => Until(condition, () => what);

    /// <summary>As <see cref="Until(Func{bool}, string)"/>, with a description built only on failure (it may report state).</summary>
    internal static void Until(Func<bool> condition, Func<string> what)
    {
        var stopwatch = Stopwatch.StartNew();
        var spinner = default(SpinWait);
        while (!condition())
        {
            if (stopwatch.Elapsed >= Timeout)
            {
                Assert.Fail($"Timed out waiting until {what()}.");
            }

            spinner.SpinOnce();
        }
    }
}
