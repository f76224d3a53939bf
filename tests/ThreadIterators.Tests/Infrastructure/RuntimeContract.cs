namespace ThreadIterators.Tests;

/// <summary>
/// Every behaviour of the runtime, as one contract split by concept into partial files (RuntimeContract.*.cs),
/// run against each scheduler configuration below: every scheduling policy on one worker (deterministic
/// coroutines), two (as many as this machine has cores) and four (more workers than cores, so workers are preempted
/// mid-protocol). Each test project compiles this file with its own parts, so the benchmark tier
/// (tests/ThreadIterators.Benchmarks.Tests) and the stress tier (tests/ThreadIterators.StressTests) run their
/// contracts under the same configurations.
/// </summary>
public abstract partial class RuntimeContract : SchedulerContract
{
    /// <summary>WorkStealing: every green thread on one OS thread: deterministic coroutines.</summary>
    public sealed class WorkStealingOneWorker : RuntimeContract
    {
        protected override int WorkerCount => 1;

        protected override SchedulingPolicy Policy => SchedulingPolicy.WorkStealing;
    }

    /// <summary>WorkStealing: as many workers as this machine has cores.</summary>
    public sealed class WorkStealingTwoWorkers : RuntimeContract
    {
        protected override int WorkerCount => 2;

        protected override SchedulingPolicy Policy => SchedulingPolicy.WorkStealing;
    }

    /// <summary>WorkStealing: more workers than cores, so workers are preempted mid-protocol.</summary>
    public sealed class WorkStealingFourWorkers : RuntimeContract
    {
        protected override int WorkerCount => 4;

        protected override SchedulingPolicy Policy => SchedulingPolicy.WorkStealing;
    }

    /// <summary>SoftAffinity: every green thread on one OS thread: deterministic coroutines.</summary>
    public sealed class SoftAffinityOneWorker : RuntimeContract
    {
        protected override int WorkerCount => 1;

        protected override SchedulingPolicy Policy => SchedulingPolicy.SoftAffinity;
    }

    /// <summary>SoftAffinity: as many workers as this machine has cores.</summary>
    public sealed class SoftAffinityTwoWorkers : RuntimeContract
    {
        protected override int WorkerCount => 2;

        protected override SchedulingPolicy Policy => SchedulingPolicy.SoftAffinity;
    }

    /// <summary>SoftAffinity: more workers than cores, so workers are preempted mid-protocol.</summary>
    public sealed class SoftAffinityFourWorkers : RuntimeContract
    {
        protected override int WorkerCount => 4;

        protected override SchedulingPolicy Policy => SchedulingPolicy.SoftAffinity;
    }

    /// <summary>Dedicated: every green thread on one OS thread: deterministic coroutines.</summary>
    public sealed class DedicatedOneWorker : RuntimeContract
    {
        protected override int WorkerCount => 1;

        protected override SchedulingPolicy Policy => SchedulingPolicy.Dedicated;
    }

    /// <summary>Dedicated: as many workers as this machine has cores.</summary>
    public sealed class DedicatedTwoWorkers : RuntimeContract
    {
        protected override int WorkerCount => 2;

        protected override SchedulingPolicy Policy => SchedulingPolicy.Dedicated;
    }

    /// <summary>Dedicated: more workers than cores, so workers are preempted mid-protocol.</summary>
    public sealed class DedicatedFourWorkers : RuntimeContract
    {
        protected override int WorkerCount => 4;

        protected override SchedulingPolicy Policy => SchedulingPolicy.Dedicated;
    }

    /// <summary>SharedQueue: every green thread on one OS thread: deterministic coroutines.</summary>
    public sealed class SharedQueueOneWorker : RuntimeContract
    {
        protected override int WorkerCount => 1;

        protected override SchedulingPolicy Policy => SchedulingPolicy.SharedQueue;
    }

    /// <summary>SharedQueue: as many workers as this machine has cores.</summary>
    public sealed class SharedQueueTwoWorkers : RuntimeContract
    {
        protected override int WorkerCount => 2;

        protected override SchedulingPolicy Policy => SchedulingPolicy.SharedQueue;
    }

    /// <summary>SharedQueue: more workers than cores, so workers are preempted mid-protocol.</summary>
    public sealed class SharedQueueFourWorkers : RuntimeContract
    {
        protected override int WorkerCount => 4;

        protected override SchedulingPolicy Policy => SchedulingPolicy.SharedQueue;
    }
}
