using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// <c>--tracing none|idle|traced</c>: what a run costs with OpenTelemetry-style tracing around it. <c>idle</c>
/// attaches a listener to the library's activity source and makes one activity current before the run (so the
/// library's per-turn and per-send checks are on), while the workload itself runs outside any trace; <c>traced</c>
/// also runs each measured run inside an activity, so that every message the workload's OS thread sends, and every
/// message sent on from there, carries the trace and makes a send and a receive span. The listener samples every
/// span with all data, as an SDK with an always-on sampler does, and only counts the spans it is given.
/// </summary>
internal sealed class TracingMode : IDisposable
{
    private static readonly ActivitySource s_bench = new("ThreadIterators.Benchmarks");

    private readonly ActivityListener? _listener;

    private long _spans;

    private TracingMode(string name)
    {
        Name = name;
        if (name == "none")
        {
            return;
        }

        _listener = new ActivityListener
        {
            ShouldListenTo = static s => s.Name is "ThreadIterators" or "ThreadIterators.Benchmarks",
            Sample = static (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = _ => Interlocked.Increment(ref _spans),
        };
        ActivitySource.AddActivityListener(_listener);

        // One activity, made current and stopped on this thread: from here on the library keeps each green thread's.
        s_bench.StartActivity("tracing on")?.Stop();
    }

    /// <summary>Gets the mode's name.</summary>
    public string Name { get; }

    /// <summary>Gets the spans the listener was given so far.</summary>
    public long Spans => Interlocked.Read(ref _spans);

    /// <summary>Gets the mode of this process's runs.</summary>
    public static TracingMode Current { get; private set; } = new("none");

    /// <summary>Sets the mode of this process's runs; false for an unknown name.</summary>
    public static bool TrySet(string? name)
    {
        if (name is not ("none" or "idle" or "traced"))
        {
            return false;
        }

        Current.Dispose();
        Current = new TracingMode(name);
        return true;
    }

    /// <summary>Runs one measured run: inside an activity of its own in <c>traced</c> mode.</summary>
    public long Around(Func<long> run)
    {
        if (Name != "traced")
        {
            return run();
        }

        using var activity = s_bench.StartActivity("run");
        return run();
    }

    public void Dispose() => _listener?.Dispose();
}
