using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Tests;

/// <summary>The baselines the benchmarks compare against must compute the same answers as the green threads.</summary>
public sealed class BaselineWorkloadTests
{
    [Fact]
    public void Tasks_ComputeTheDocumentedAnswers()
    {
        Assert.Equal(Ring.Expected(50), Ring.Tasks(100, 50));
        Assert.Equal(ThreadRing.Expected(10_000), ThreadRing.Tasks(10_000));
        Assert.Equal(ParallelThreadRing.Expected(50_300), ParallelThreadRing.Tasks(50_300));
        Assert.Equal(PingPong.Expected(10_001), PingPong.Tasks(10_001));
        Assert.Equal(CountingActor.Expected(20_000), CountingActor.Tasks(20_000));
        Assert.Equal(ProducerConsumer.Expected(20_000), ProducerConsumer.Tasks(20_000));
        Assert.Equal(Skynet.Expected(10_000), Skynet.Tasks(10_000));
    }

    [Fact]
    public void OsThreads_ThreadRing_ComputesTheLastHolder()
    {
        Assert.Equal(ThreadRing.Expected(1_234), ThreadRing.OsThreads(1_234));
    }
}
