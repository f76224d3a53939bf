namespace ThreadIterators.Tests;

/// <summary>
/// Every behaviour of the runtime, as one contract split by concept into partial files (RuntimeContract.*.cs),
/// run against each scheduler configuration below.
/// </summary>
public abstract partial class RuntimeContract : SchedulerContract
{
    /// <summary>Every green thread on one OS thread: deterministic coroutines.</summary>
    public sealed class OneWorker : RuntimeContract
    {
        protected override int WorkerCount => 1;
    }

    /// <summary>As many workers as this machine has cores.</summary>
    public sealed class TwoWorkers : RuntimeContract
    {
        protected override int WorkerCount => 2;
    }

    /// <summary>More workers than cores, so workers are preempted mid-protocol.</summary>
    public sealed class FourWorkers : RuntimeContract
    {
        protected override int WorkerCount => 4;
    }
}
