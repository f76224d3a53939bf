using System;
using System.Collections.Generic;
using ThreadIterators;

namespace ThreadIterators.Samples.Testing;

/// <summary>A classic concurrency bug as a green-thread test: the buggy program, and the same program fixed.</summary>
/// <param name="Name">What the bug is.</param>
/// <param name="Buggy">The test with the bug: it throws, or deadlocks, under some schedules.</param>
/// <param name="Fixed">The test with the fix: it passes under every schedule.</param>
public sealed record ClassicBug(string Name, Func<Scheduler, IEnumerable<Event>> Buggy, Func<Scheduler, IEnumerable<Event>> Fixed);
