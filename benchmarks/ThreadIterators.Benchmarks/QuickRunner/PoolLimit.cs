using System;
using System.Globalization;
using System.Threading;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// Limits the .NET thread pool to W threads, so that implementations on the pool run on as many OS threads as a
/// scheduler with W workers. The pool refuses a maximum below the processor count, so the limit is taken in a
/// process of its own started with <c>DOTNET_PROCESSOR_COUNT=W</c>; that also sizes the pool's other decisions
/// (its minimum, its spinning) for W processors, as on a machine with W cores.
/// </summary>
internal static class PoolLimit
{
    /// <summary>The variable that tells a child process it was started to run on W pool threads.</summary>
    public const string Variable = "THREADITERATORS_POOL_THREADS";

    /// <summary>Gets the pool thread count this process was started for, or null if it was not.</summary>
    public static int? ThisProcess =>
        int.TryParse(Environment.GetEnvironmentVariable(Variable), NumberStyles.Integer, CultureInfo.InvariantCulture, out var threads) ? threads : null;

    /// <summary>The environment of a child process that runs on <paramref name="threads"/> pool threads.</summary>
    public static (string Name, string Value)[] ChildEnvironment(int threads)
    {
        var text = threads.ToString(CultureInfo.InvariantCulture);
        return [("DOTNET_PROCESSOR_COUNT", text), (Variable, text)];
    }

    /// <summary>
    /// Sets the pool's minimum and maximum worker threads to <paramref name="threads"/> (the minimum first, since the
    /// maximum may not go below it) and returns whether the pool took it.
    /// </summary>
    public static bool Apply(int threads)
    {
        ThreadPool.GetMinThreads(out _, out var ioMin);
        ThreadPool.GetMaxThreads(out _, out var ioMax);
        var limited = ThreadPool.SetMinThreads(threads, ioMin) && ThreadPool.SetMaxThreads(threads, ioMax);
        ThreadPool.GetMaxThreads(out var max, out _);
        return limited && max == threads;
    }
}
