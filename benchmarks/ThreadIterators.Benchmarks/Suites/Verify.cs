using System;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>Fails a benchmark whose workload computed the wrong answer, so no table shows a broken run.</summary>
internal static class Verify
{
    public static long Result(string workload, long actual, long expected) =>
        actual == expected ? actual : throw new InvalidOperationException($"{workload} computed {actual}, expected {expected}.");
}
