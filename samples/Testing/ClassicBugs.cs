using System;
using System.Collections.Generic;
using System.Linq;
using ThreadIterators;
using ThreadIterators.Testing;

namespace ThreadIterators.Samples.Testing;

/// <summary>
/// Five classic concurrency bugs, each a test that <see cref="Exploration.Explore"/> catches, and its fix. Each body
/// is an ordinary green-thread body: spawned on a real scheduler it runs the same, and usually passes there.
/// </summary>
public static class ClassicBugs
{
    /// <summary>Gets the five bugs, in the order docs/testing.md lists them.</summary>
    public static IReadOnlyList<ClassicBug> All { get; } =
    [
        new("lost update through interleaved request/reply", LostUpdate.Buggy, LostUpdate.Fixed),
        new("order violation between two senders", OrderViolation.Buggy, OrderViolation.Fixed),
        new("dining philosophers deadlock", Philosophers.Buggy, Philosophers.Fixed),
        new("timeout racing a late reply", TimeoutRetry.Buggy, TimeoutRetry.Fixed),
        new("supervisor restart that loses a message", RestartLoss.Buggy, RestartLoss.Fixed),
    ];

    /// <summary>Throws the failure a test reports, naming the broken expectation.</summary>
    internal static void Expect(bool holds, string what)
    {
        if (!holds)
        {
            throw new InvalidOperationException(what);
        }
    }
}
