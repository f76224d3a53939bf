using System.Collections.Generic;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>Every workload of the quick runner, with the same code the BenchmarkDotNet suites run.</summary>
internal static class Catalogue
{
    /// <summary>Gets the workloads in the order the comparison table lists them.</summary>
    public static IReadOnlyList<WorkloadSpec> All { get; } =
    [
        new(
            "ring",
            Defaults: new(N: 10_000, M: 1_000, Hops: 0),
            ComparisonSizes: new(N: 10_000, M: 200, Hops: 0),
            o => $"n={o.N} m={o.M}",
            o => o.N * o.M,
            o => Workloads.Ring.Expected(o.M),
            [
                new(Implementation.GreenThreads, RunsOn.Scheduler, (h, o) => Workloads.Ring.GreenThreads(h.Scheduler, (int)o.N, (int)o.M)),
                new(Implementation.Tasks, RunsOn.ThreadPool, (_, o) => Workloads.Ring.Tasks((int)o.N, (int)o.M)),
                new(Implementation.Akka, RunsOn.ThreadPool, (h, o) => h.Akka.Ring((int)o.N, (int)o.M)),
                new(Implementation.ProtoActor, RunsOn.ThreadPool, (h, o) => h.ProtoActor.Ring((int)o.N, (int)o.M)),
            ]),
        new(
            "threadring",
            Defaults: new(N: 0, M: 0, Hops: 10_000_000),
            ComparisonSizes: new(N: 0, M: 0, Hops: 2_000_000),
            o => $"hops={o.Hops}",
            o => o.Hops,
            o => ThreadRing.Expected(o.Hops),
            [
                new(Implementation.GreenThreads, RunsOn.Scheduler, (h, o) => ThreadRing.GreenThreads(h.Scheduler, o.Hops)),
                new(Implementation.Tasks, RunsOn.ThreadPool, (_, o) => ThreadRing.Tasks(o.Hops)),
                new(Implementation.Akka, RunsOn.ThreadPool, (h, o) => h.Akka.ThreadRing(o.Hops)),
                new(Implementation.ProtoActor, RunsOn.ThreadPool, (h, o) => h.ProtoActor.ThreadRing(o.Hops)),
                new(Implementation.Threads, RunsOn.OwnThreads, (_, o) => ThreadRing.OsThreads(o.Hops), o => o with { Hops = o.Hops / 50 }),
            ]),
        new(
            "parallelthreadring",
            Defaults: new(N: 0, M: 0, Hops: 503 * 20_000),
            ComparisonSizes: new(N: 0, M: 0, Hops: 503 * 4_000),
            o => $"hops={ParallelThreadRing.Expected(o.Hops)}",
            o => ParallelThreadRing.Expected(o.Hops),
            o => ParallelThreadRing.Expected(o.Hops),
            [
                new(Implementation.GreenThreads, RunsOn.Scheduler, (h, o) => ParallelThreadRing.GreenThreads(h.Scheduler, o.Hops)),
                new(Implementation.Tasks, RunsOn.ThreadPool, (_, o) => ParallelThreadRing.Tasks(o.Hops)),
                new(Implementation.Akka, RunsOn.ThreadPool, (h, o) => h.Akka.ParallelThreadRing(o.Hops)),
                new(Implementation.ProtoActor, RunsOn.ThreadPool, (h, o) => h.ProtoActor.ParallelThreadRing(o.Hops)),
            ]),
        new(
            "pingpong",
            Defaults: new(N: 0, M: 10_000_000, Hops: 0),
            ComparisonSizes: new(N: 0, M: 2_000_000, Hops: 0),
            o => $"m={o.M}",
            o => o.M,
            o => PingPong.Expected(o.M),
            [
                new(Implementation.GreenThreads, RunsOn.Scheduler, (h, o) => PingPong.GreenThreads(h.Scheduler, o.M)),
                new(Implementation.Tasks, RunsOn.ThreadPool, (_, o) => PingPong.Tasks(o.M)),
                new(Implementation.Akka, RunsOn.ThreadPool, (h, o) => h.Akka.PingPong(o.M)),
                new(Implementation.ProtoActor, RunsOn.ThreadPool, (h, o) => h.ProtoActor.PingPong(o.M)),
            ]),
        new(
            "countingactor",
            Defaults: new(N: 0, M: 50_000_000, Hops: 0),
            ComparisonSizes: new(N: 0, M: 5_000_000, Hops: 0),
            o => $"m={o.M}",
            o => o.M,
            o => CountingActor.Expected(o.M),
            [
                new(Implementation.GreenThreads, RunsOn.Scheduler, (h, o) => CountingActor.GreenThreads(h.Scheduler, o.M)),
                new(Implementation.Tasks, RunsOn.ThreadPool, (_, o) => CountingActor.Tasks(o.M)),
                new(Implementation.Akka, RunsOn.ThreadPool, (h, o) => h.Akka.CountingActor(o.M)),
                new(Implementation.ProtoActor, RunsOn.ThreadPool, (h, o) => h.ProtoActor.CountingActor(o.M)),
            ]),
        new(
            "producerconsumer",
            Defaults: new(N: 0, M: 50_000_000, Hops: 0),
            ComparisonSizes: new(N: 0, M: 4_000_000, Hops: 0),
            o => $"m={o.M}",
            o => o.M,
            o => ProducerConsumer.Expected(o.M),
            [
                new(Implementation.GreenThreads, RunsOn.Scheduler, (h, o) => ProducerConsumer.GreenThreads(h.Scheduler, o.M)),
                new(Implementation.Tasks, RunsOn.ThreadPool, (_, o) => ProducerConsumer.Tasks(o.M)),
                new(Implementation.Akka, RunsOn.ThreadPool, (h, o) => h.Akka.ProducerConsumer(o.M)),
                new(Implementation.ProtoActor, RunsOn.ThreadPool, (h, o) => h.ProtoActor.ProducerConsumer(o.M)),
            ]),
        new(
            "skynet",
            Defaults: new(N: 1_000_000, M: 0, Hops: 0),
            ComparisonSizes: new(N: 1_000_000, M: 0, Hops: 0),
            o => $"leaves={o.N}",
            o => Skynet.Threads(o.N),
            o => Skynet.Expected(o.N),
            [
                new(Implementation.GreenThreads, RunsOn.Scheduler, (h, o) => Skynet.GreenThreads(h.Scheduler, o.N)),
                new(Implementation.Tasks, RunsOn.ThreadPool, (_, o) => Skynet.Tasks(o.N)),
                new(Implementation.Akka, RunsOn.ThreadPool, (h, o) => h.Akka.Skynet(o.N)),
                new(Implementation.ProtoActor, RunsOn.ThreadPool, (h, o) => h.ProtoActor.Skynet(o.N)),
            ]),
        new(
            "cacheaffinity",
            Defaults: new(N: 0, M: 200_000, Hops: 0, Actors: 24, State: 32_000, Accesses: 100),
            ComparisonSizes: new(N: 0, M: 200_000, Hops: 0, Actors: 24, State: 32_000, Accesses: 100),
            o => $"actors={o.Actors} state={o.State} accesses={o.Accesses} m={o.M}",
            o => o.M,
            o => CacheAffinity.Expected(o.M),
            [
                new(Implementation.GreenThreads, RunsOn.Scheduler, (h, o) => CacheAffinity.GreenThreads(h.Scheduler, ActorStates.For((int)o.Actors, o.State), (int)o.Accesses, o.M)),
                new(Implementation.ThreadPool, RunsOn.ThreadPool, (_, o) => CacheAffinity.ThreadPool(ActorStates.For((int)o.Actors, o.State), (int)o.Accesses, o.M)),
                new(Implementation.Akka, RunsOn.ThreadPool, (h, o) => h.Akka.CacheAffinity(ActorStates.For((int)o.Actors, o.State), (int)o.Accesses, o.M)),
                new(Implementation.ProtoActor, RunsOn.ThreadPool, (h, o) => h.ProtoActor.CacheAffinity(ActorStates.For((int)o.Actors, o.State), (int)o.Accesses, o.M)),
            ]),
    ];
}
