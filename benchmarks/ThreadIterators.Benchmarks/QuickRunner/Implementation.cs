using System;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>One way of running a workload.</summary>
/// <param name="Name">What <c>--impl</c> selects, such as <c>threaditerators</c> or <c>tasks</c>.</param>
/// <param name="On">What its <c>--workers</c> count limits.</param>
/// <param name="Run">Runs once on the configuration's host and returns the result to verify.</param>
/// <param name="Resize">Shrinks the sizes for implementations too slow for the full workload (OS threads), or null.</param>
internal sealed record Implementation(string Name, RunsOn On, Func<RunHost, RunOptions, long> Run, Func<RunOptions, RunOptions>? Resize = null)
{
    /// <summary>The green-thread implementation's name.</summary>
    public const string GreenThreads = "threaditerators";

    /// <summary>The async/await with channels baseline's name.</summary>
    public const string Tasks = "tasks";

    /// <summary>The OS-thread implementation's name.</summary>
    public const string Threads = "threads";

    /// <summary>The plain thread-pool baseline's name (one work item per message).</summary>
    public const string ThreadPool = "threadpool";

    /// <summary>The Akka.NET implementation's name.</summary>
    public const string Akka = "akka";

    /// <summary>The Proto.Actor implementation's name.</summary>
    public const string ProtoActor = "protoactor";
}
