using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void Workloads_GreenThreads_ComputeTheDocumentedAnswers()
    {
        Assert.Equal(Ring.Expected(50), Ring.GreenThreads(Scheduler, 100, 50));
        Assert.Equal(ThreadRing.Expected(10_000), ThreadRing.GreenThreads(Scheduler, 10_000));
        Assert.Equal(ParallelThreadRing.Expected(50_300), ParallelThreadRing.GreenThreads(Scheduler, 50_300));
        Assert.Equal(PingPong.Expected(10_001), PingPong.GreenThreads(Scheduler, 10_001));
        Assert.Equal(CountingActor.Expected(20_000), CountingActor.GreenThreads(Scheduler, 20_000));
        Assert.Equal(ProducerConsumer.Expected(20_000), ProducerConsumer.GreenThreads(Scheduler, 20_000));
        Assert.Equal(Skynet.Expected(10_000), Skynet.GreenThreads(Scheduler, 10_000));
        Assert.Equal(499_999_500_000, Skynet.Expected(1_000_000));
        Assert.Equal(1_111_111, Skynet.Threads(1_000_000));
        Assert.Equal(CacheAffinity.Expected(20_000), CacheAffinity.GreenThreads(Scheduler, ActorStates.For(24, 4_000), 10, 20_000));
        Assert.Equal(CacheAffinity.Expected(3), CacheAffinity.GreenThreads(Scheduler, ActorStates.For(8, 64), 10, 3));
        Assert.Equal(TaskWait.Expected(10_000), TaskWait.CompletedTask(Scheduler, 10_000));
        Assert.Equal(TaskWait.Expected(10_000), TaskWait.ReceiveWaiting(Scheduler, TaskWait.Prefilled(10_000), 10_000));
        Assert.Equal(TaskWait.Expected(2_000), TaskWait.PendingTask(Scheduler, 2_000));
        Assert.Equal(TaskWait.Expected(2_000), TaskWait.ReceiveFromHelper(Scheduler, 2_000));
        Assert.Equal(Restarts.Expected(500), Restarts.Supervised(Scheduler, 500, crash: true));
        Assert.Equal(Restarts.Expected(500), Restarts.Supervised(Scheduler, 500, crash: false));
        Assert.Equal(Restarts.Expected(500), Restarts.Unsupervised(Scheduler, 500));
        Assert.Equal(Asks.Expected(1_000), Asks.Ask(Scheduler, 1_000, timeout: true));
        Assert.Equal(Asks.Expected(1_000), Asks.Ask(Scheduler, 1_000, timeout: false));
        Assert.Equal(Asks.Expected(1_000), Asks.ReplyMailbox(Scheduler, 1_000));
    }
}
