using System;
using ThreadIterators.Benchmarks.Peers.ProtoActor;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Tests;

/// <summary>
/// The Proto.Actor peer must compute the same answers as the green threads, run after run on one actor system (as the
/// benchmarks reuse it), and leave no actor registered behind.
/// </summary>
public sealed class ProtoActorWorkloadTests(ProtoActorWorkloadTests.PeerFixture fixture) : IClassFixture<ProtoActorWorkloadTests.PeerFixture>
{
    private const int Runs = 3;

    private ProtoActorPeer Peer => fixture.Peer;

    [Fact]
    public void Ring_CountsEveryMessageInOrder()
    {
        for (var run = 0; run < Runs; run++)
        {
            Assert.Equal(Ring.Expected(50), Peer.Ring(100, 50));
        }

        Assert.Equal(Ring.Expected(10), Peer.Ring(1, 10));
        Assert.Equal(Ring.Expected(0), Peer.Ring(3, 0));
        AssertNoActorLeft();
    }

    [Fact]
    public void ThreadRing_FindsTheLastHolder()
    {
        for (var run = 0; run < Runs; run++)
        {
            Assert.Equal(ThreadRing.Expected(10_000), Peer.ThreadRing(10_000));
        }

        Assert.Equal(ThreadRing.Expected(0), Peer.ThreadRing(0));
        Assert.Equal(ThreadRing.Expected(502), Peer.ThreadRing(502));
        Assert.Equal(ThreadRing.Expected(503), Peer.ThreadRing(503));
        AssertNoActorLeft();
    }

    [Fact]
    public void ParallelThreadRing_CountsEveryHop()
    {
        for (var run = 0; run < Runs; run++)
        {
            Assert.Equal(ParallelThreadRing.Expected(50_300), Peer.ParallelThreadRing(50_300));
        }

        Assert.Equal(ParallelThreadRing.Expected((503 * 3) + 7), Peer.ParallelThreadRing((503 * 3) + 7));
        Assert.Equal(ParallelThreadRing.Expected(100), Peer.ParallelThreadRing(100));
        AssertNoActorLeft();
    }

    [Fact]
    public void PingPong_EndsOnOne()
    {
        for (var run = 0; run < Runs; run++)
        {
            Assert.Equal(PingPong.Expected(10_001), Peer.PingPong(10_001));
            Assert.Equal(PingPong.Expected(10_000), Peer.PingPong(10_000));
        }

        Assert.Equal(PingPong.Expected(1), Peer.PingPong(1));
        Assert.Equal(PingPong.Expected(2), Peer.PingPong(2));
        AssertNoActorLeft();
    }

    [Fact]
    public void CountingActor_CountsEveryIncrement()
    {
        for (var run = 0; run < Runs; run++)
        {
            Assert.Equal(CountingActor.Expected(20_000), Peer.CountingActor(20_000));
        }

        Assert.Equal(CountingActor.Expected(1), Peer.CountingActor(1));
        Assert.Equal(CountingActor.Expected(0), Peer.CountingActor(0));
        AssertNoActorLeft();
    }

    [Fact]
    public void ProducerConsumer_ReceivesEachProducerInOrder()
    {
        for (var run = 0; run < Runs; run++)
        {
            Assert.Equal(ProducerConsumer.Expected(20_000), Peer.ProducerConsumer(20_000));
        }

        Assert.Equal(ProducerConsumer.Expected(20_001), Peer.ProducerConsumer(20_001));
        Assert.Equal(ProducerConsumer.Expected(1), Peer.ProducerConsumer(1));
        AssertNoActorLeft();
    }

    [Fact]
    public void Skynet_SumsTheOrdinals()
    {
        for (var run = 0; run < Runs; run++)
        {
            Assert.Equal(Skynet.Expected(10_000), Peer.Skynet(10_000));
        }

        Assert.Equal(Skynet.Expected(10), Peer.Skynet(10));
        Assert.Equal(Skynet.Expected(1), Peer.Skynet(1));
        AssertNoActorLeft();
    }

    /// <summary>Many short runs, as for the thread pool baseline, where a message handled twice or lost would show.</summary>
    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(24)]
    public void CacheAffinity_HandlesEveryMessageOnce(int actors)
    {
        var states = ActorStates.For(actors, 64);
        for (var run = 0; run < 50; run++)
        {
            Assert.Equal(CacheAffinity.Expected(5_000), Peer.CacheAffinity(states, 2, 5_000));
        }

        Assert.Equal(CacheAffinity.Expected(3), Peer.CacheAffinity(ActorStates.For(8, 64), 2, 3));
        Assert.Equal(CacheAffinity.Expected(0), Peer.CacheAffinity(ActorStates.For(8, 64), 2, 0));
        AssertNoActorLeft();
    }

    [Fact]
    public void Dispose_AfterARun_ShutsTheSystemDown()
    {
        var peer = new ProtoActorPeer();
        Assert.Equal(PingPong.Expected(11), peer.PingPong(11));
        peer.Dispose();
    }

    /// <summary>Every run stops its actors before it returns, so the registry is back to the system's own processes.</summary>
    private void AssertNoActorLeft() => Assert.Equal(fixture.SystemProcesses, Peer.ProcessCount);

    /// <summary>One peer for the whole class, as the benchmarks keep one for all their runs.</summary>
    public sealed class PeerFixture : IDisposable
    {
        /// <summary>
        /// Runs once before counting: the first wait for a run actor to stop registers the system's shared future
        /// process, which stays for the system's life.
        /// </summary>
        public PeerFixture()
        {
            Peer.PingPong(2);
            SystemProcesses = Peer.ProcessCount;
        }

        /// <summary>Gets the processes the system keeps for itself across runs.</summary>
        public int SystemProcesses { get; }

        internal ProtoActorPeer Peer { get; } = new();

        public void Dispose() => Peer.Dispose();
    }
}
