using System.Collections.Generic;
using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// A rendezvous hop against a bounded one: Flood's shape (one producer puts 1,000,000 numbered messages, one consumer
/// receives them and counts those in order), through a bounded mailbox of capacity 1 (the baseline: each put waits
/// for the take before it) or a rendezvous mailbox (capacity 0: each put completes when the receiver takes it). The
/// producer arms one reusable put event (<c>CreatePutEvent().For(i)</c>) per message. Per-operation figures are per
/// message; the allocation column says whether a hop allocates in steady state.
/// </summary>
/// <remarks>
/// Not a <see cref="WorkerSuite"/>: only work stealing, the default, so that the class runs in minutes. The dedicated
/// policy's 2-worker hop parks and unparks a worker per message (tens of microseconds), which would hide the
/// mailboxes' cost.
/// </remarks>
[Config(typeof(SuiteConfig))]
public class RendezvousBenchmarks
{
    private const int Messages = 1_000_000;

    /// <summary>Gets the scheduler of the runs, one per worker count (a property, disposed in <see cref="Cleanup"/>).</summary>
    private Scheduler Scheduler { get; set; } = null!;

    /// <summary>Gets or sets the OS threads the green threads run on.</summary>
    [Params(1, 2)]
    public int Workers { get; set; }

    [GlobalSetup]
    public void Setup() => Scheduler = new Scheduler(new SchedulerOptions { WorkerCount = Workers });

    [GlobalCleanup]
    public void Cleanup() => Scheduler.Dispose();

    /// <summary>The baseline: a bounded mailbox of capacity 1.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Messages)]
    public long BoundedPut() => Verify.Result("Flood.Bounded1", Hops(capacity: 1), Messages);

    /// <summary>A rendezvous mailbox: each put completes when the receiver takes its message.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long RendezvousPut() => Verify.Result("Flood.Rendezvous", Hops(capacity: 0), Messages);

    private long Hops(int capacity)
    {
        var inbox = new Mailbox<long>(capacity, "hops");
        long inOrder = 0;
        Scheduler.Spawn(Consumer(), "consumer");
        Scheduler.Spawn(Producer(), "producer");
        Scheduler.WaitForAll();
        return inOrder;

        IEnumerable<Event> Producer()
        {
            var put = inbox.CreatePutEvent();
            for (long i = 0; i < Messages; i++)
            {
                yield return put.For(i);
            }
        }

        IEnumerable<Event> Consumer()
        {
            var message = inbox.Recv();
            for (long i = 0; i < Messages; i++)
            {
                yield return message;
                if (message.Value == i)
                {
                    inOrder++;
                }
            }
        }
    }
}
