using System;
using ThreadIterators.Benchmarks.Peers.AkkaNet;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Tests;

/// <summary>
/// The Akka.NET peer must compute the same answers as the green threads, run after run on one actor system, as the
/// benchmarks reuse it.
/// </summary>
public sealed class AkkaWorkloadTests
{
    [Fact]
    public void EveryWorkload_RepeatedOnOnePeer_ComputesTheDocumentedAnswers()
    {
        using var peer = new AkkaPeer();
        var states = ActorStates.For(4, 64);
        for (var run = 0; run < 3; run++)
        {
            Assert.Equal(Ring.Expected(50), peer.Ring(100, 50));
            Assert.Equal(ThreadRing.Expected(10_000), peer.ThreadRing(10_000));
            Assert.Equal(ParallelThreadRing.Expected(50_300), peer.ParallelThreadRing(50_300));
            Assert.Equal(PingPong.Expected(10_000), peer.PingPong(10_000));
            Assert.Equal(CountingActor.Expected(20_000), peer.CountingActor(20_000));
            Assert.Equal(ProducerConsumer.Expected(20_000), peer.ProducerConsumer(20_000));
            Assert.Equal(Skynet.Expected(10_000), peer.Skynet(10_000));
            Assert.Equal(CacheAffinity.Expected(5_000), peer.CacheAffinity(states, 2, 5_000));
        }
    }

    [Fact]
    public void OddSizes_ComputeTheDocumentedAnswers()
    {
        using var peer = new AkkaPeer();
        Assert.Equal(Ring.Expected(7), peer.Ring(1, 7));
        Assert.Equal(Ring.Expected(0), peer.Ring(3, 0));
        Assert.Equal(ThreadRing.Expected(0), peer.ThreadRing(0));
        Assert.Equal(ThreadRing.Expected(1_234), peer.ThreadRing(1_234));
        Assert.Equal(ParallelThreadRing.Expected(502), peer.ParallelThreadRing(502));
        Assert.Equal(ParallelThreadRing.Expected(1_234), peer.ParallelThreadRing(1_234));
        Assert.Equal(PingPong.Expected(1), peer.PingPong(1));
        Assert.Equal(PingPong.Expected(2), peer.PingPong(2));
        Assert.Equal(PingPong.Expected(10_001), peer.PingPong(10_001));
        Assert.Equal(CountingActor.Expected(1), peer.CountingActor(1));
        Assert.Equal(ProducerConsumer.Expected(1), peer.ProducerConsumer(1));
        Assert.Equal(ProducerConsumer.Expected(20_001), peer.ProducerConsumer(20_001));
        Assert.Equal(Skynet.Expected(1), peer.Skynet(1));
        Assert.Equal(Skynet.Expected(10), peer.Skynet(10));
        Assert.Equal(CacheAffinity.Expected(3), peer.CacheAffinity(ActorStates.For(8, 64), 2, 3));
    }

    /// <summary>Sizes for which no actor would ever give the answer are refused at once, rather than waited on for the run's timeout.</summary>
    [Fact]
    public void SizesThatCouldNotFinish_AreRefused()
    {
        using var peer = new AkkaPeer();
        Assert.Throws<ArgumentOutOfRangeException>(() => peer.Skynet(5));
        Assert.Throws<ArgumentOutOfRangeException>(() => peer.Skynet(0));
        Assert.Throws<ArgumentOutOfRangeException>(() => peer.PingPong(0));
        Assert.Throws<ArgumentOutOfRangeException>(() => peer.ThreadRing(-1));
        Assert.Throws<ArgumentOutOfRangeException>(() => peer.CacheAffinity(ActorStates.For(4, 64), 2, 0));
        Assert.Equal(Ring.Expected(3), peer.Ring(2, 3));
    }

    /// <summary>
    /// Many short cache-affinity runs, each ending with a broadcast stop and one report per actor, as the thread-pool
    /// baseline's test does: a message lost or handled twice shows as a wrong count, a lost report as a timeout.
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(24)]
    public void CacheAffinity_HandlesEveryMessageOnce(int actors)
    {
        using var peer = new AkkaPeer();
        var states = ActorStates.For(actors, 64);
        for (var run = 0; run < 100; run++)
        {
            Assert.Equal(CacheAffinity.Expected(5_000), peer.CacheAffinity(states, 2, 5_000));
        }
    }
}
