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
        Assert.Equal(TaskWait.Expected(2_000), TaskWait.Await(2_000, continuationsOnThreadPool: false));
        Assert.Equal(TaskWait.Expected(2_000), TaskWait.Await(2_000, continuationsOnThreadPool: true));
    }

    /// <summary>
    /// Many short runs, where work items of one actor are queued and run most often close together: a first version
    /// queued a second work item for a message already handled, and counted one message twice in about one run in 30.
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(24)]
    public void ThreadPool_CacheAffinity_HandlesEveryMessageOnce(int actors)
    {
        var states = ActorStates.For(actors, 64);
        for (var run = 0; run < 200; run++)
        {
            Assert.Equal(CacheAffinity.Expected(5_000), CacheAffinity.ThreadPool(states, 2, 5_000));
        }

        Assert.Equal(CacheAffinity.Expected(3), CacheAffinity.ThreadPool(ActorStates.For(8, 64), 2, 3));
    }

    [Fact]
    public void OsThreads_ThreadRing_ComputesTheLastHolder()
    {
        Assert.Equal(ThreadRing.Expected(1_234), ThreadRing.OsThreads(1_234));
    }
}
