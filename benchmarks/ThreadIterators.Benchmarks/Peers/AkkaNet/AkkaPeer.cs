using System;
using System.Threading.Tasks;
using Akka.Actor;
using Akka.Configuration;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// The benchmark workloads on Akka.NET (package Akka 1.5.74): one actor system, made once and reused for every run,
/// as a <see cref="Scheduler"/> is, so a run measures its actors and messages rather than the system's start.
/// </summary>
/// <remarks>
/// <para>
/// Actors are <see cref="UntypedActor"/>s matching typed messages with C# patterns (the API the Akka.NET
/// documentation recommends for C# 7 and later; <c>ReceiveActor</c> adds a handler lookup per message) and talk with
/// <c>Tell</c> only. They run on the default dispatcher with the default mailbox: in this version the dispatcher
/// queues an actor's mailbox, itself an <see cref="System.Threading.IThreadPoolWorkItem"/>, on the .NET thread pool,
/// so limiting the pool limits the workers here as it does for the Task baselines.
/// </para>
/// <para>
/// Each run is the subtree of one <see cref="RunDriver"/>: the calling thread creates it, blocks until it completes
/// the run's answer, then stops it and waits until every actor of the run has stopped, so repeated runs leave
/// nothing behind.
/// </para>
/// </remarks>
internal sealed class AkkaPeer : IDisposable
{
    /// <summary>
    /// The settings. The default dispatcher's throughput (messages an actor handles before its thread goes to another
    /// actor) goes from this version's reference value of 30 to 100, the value Akka.NET's dispatcher documentation
    /// gives in its examples and calls the usual default. Logging is cut to errors, as Akka.NET's own benchmarks do, and
    /// dead letters are not logged. Nothing else per message is on by default: received-message debug logging,
    /// telemetry, message serialization and the throughput deadline are all off.
    /// </summary>
    private const string Hocon = """
        akka {
          loglevel = ERROR
          stdout-loglevel = ERROR
          log-dead-letters = off
          log-dead-letters-during-shutdown = off
          actor.default-dispatcher.throughput = 100
        }
        """;

    /// <summary>Generous, for the largest runs on one thread of a shared machine; reached only if a run is stuck.</summary>
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);

    private readonly ActorSystem _system;

    /// <summary>
    /// Initializes a new instance of the <see cref="AkkaPeer"/> class: starts the actor system, and its scheduler.
    /// Create it on a thread outside the thread pool, as the runner's main thread is.
    /// </summary>
    /// <remarks>
    /// In this version the scheduler (<c>HashedWheelTimerScheduler</c>) starts on the first thing scheduled: it queues
    /// its timer loop on the thread pool and blocks the scheduling thread until the loop runs. Nothing here schedules
    /// anything until the system shuts down, when coordinated shutdown schedules its phase timeouts from a pool
    /// thread; with the pool limited to one thread (and at times two) that thread then waits for itself, and the
    /// system never terminates (seen here; the scheduler's dependence on the pool is akkadotnet/akka.net#8549). Starting
    /// it here, from a thread the pool does not need, avoids that. The cost is Akka.NET's own: from then on its timer
    /// loop wakes on a pool thread every tick (10 ms), as it does in any system that has scheduled something.
    /// </remarks>
    public AkkaPeer()
    {
        _system = ActorSystem.Create("peers-akka", ConfigurationFactory.ParseString(Hocon));
        _system.Scheduler.Advanced.ScheduleOnce(TimeSpan.Zero, static () => { });
    }

    /// <summary>
    /// The ring: <paramref name="forwarders"/> forwarders in a line ending at a drain; the driver pumps
    /// <paramref name="messages"/> numbered messages and a stop marker into the line's start.
    /// </summary>
    /// <returns>The messages the drain received in order.</returns>
    public long Ring(int forwarders, int messages)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(forwarders, 1);
        ArgumentOutOfRangeException.ThrowIfNegative(messages);
        return Run(nameof(Ring), 1, context =>
        {
            var next = context.ActorOf(RingDrain.Props);
            for (var i = 0; i < forwarders; i++)
            {
                next = context.ActorOf(RingForwarder.Props(next));
            }

            for (var i = 0; i < messages; i++)
            {
                next.Tell(new Token(i));
            }

            next.Tell(Token.Stop);
        });
    }

    /// <summary>ThreadRing: one token passed <paramref name="hops"/> times round 503 members.</summary>
    /// <returns>The id of the member that held the token last.</returns>
    public long ThreadRing(long hops)
    {
        // A negative token would be taken for the stop marker, and the round would end with no winner to report.
        ArgumentOutOfRangeException.ThrowIfNegative(hops);
        return Run(nameof(ThreadRing), 1, context =>
        {
            var ring = new IActorRef[Workloads.ThreadRing.Size];
            for (var i = 0; i < ring.Length; i++)
            {
                ring[i] = context.ActorOf(ThreadRingMember.Props(ring, i));
            }

            ring[0].Tell(new Token(hops));
        });
    }

    /// <summary>ParallelThreadRing: 503 tokens at once round 503 members, the hops split equally among them.</summary>
    /// <returns>The hops made.</returns>
    public long ParallelThreadRing(long hops)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(hops);
        return Run(nameof(ParallelThreadRing), 1, context =>
        {
            var ring = new IActorRef[Workloads.ParallelThreadRing.Size];
            var tally = new ParallelRingTally(ring.Length);
            for (var i = 0; i < ring.Length; i++)
            {
                ring[i] = context.ActorOf(ParallelThreadRingMember.Props(ring, i, tally));
            }

            foreach (var member in ring)
            {
                member.Tell(new Token(hops / ring.Length));
            }
        });
    }

    /// <summary>PingPong: two players bounce a counter <paramref name="messages"/> times, each answering with one less.</summary>
    /// <returns>The counter of the last ball.</returns>
    public long PingPong(long messages)
    {
        // With no message, no ball would carry 1.
        ArgumentOutOfRangeException.ThrowIfLessThan(messages, 1);
        return Run(nameof(PingPong), 1, context =>
        {
            var pong = context.ActorOf(PingPongPlayer.Props(null, (messages + 1) / 2, 0));
            var ping = context.ActorOf(PingPongPlayer.Props(pong, messages / 2, messages));
            ping.Tell(Start.Instance);
        });
    }

    /// <summary>CountingActor: a sender tells a counter <paramref name="messages"/> increments, then asks for the total.</summary>
    /// <returns>The counter's total.</returns>
    public long CountingActor(long messages)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(messages);
        return Run(nameof(CountingActor), 1, context =>
        {
            var counter = context.ActorOf(Counter.Props);
            context.ActorOf(CountingSender.Props(counter, messages)).Tell(Start.Instance);
        });
    }

    /// <summary>ProducerConsumer: two producers tell one consumer half the <paramref name="messages"/> each.</summary>
    /// <returns>The messages the consumer received in their producer's order.</returns>
    public long ProducerConsumer(long messages)
    {
        const int producers = 2;
        ArgumentOutOfRangeException.ThrowIfNegative(messages);
        var each = messages / producers;
        return Run(nameof(ProducerConsumer), 1, context =>
        {
            var consumer = context.ActorOf(Consumer.Props(producers, each));
            for (var p = 0; p < producers; p++)
            {
                context.ActorOf(Producer.Props(consumer, p, each)).Tell(Start.Instance);
            }
        });
    }

    /// <summary>Skynet: a tree of actors, ten children per node, down to <paramref name="leaves"/> leaves.</summary>
    /// <returns>The sum of the leaves' ordinals.</returns>
    public long Skynet(long leaves)
    {
        // Any other count would reach nodes of no leaves, which would create children without end.
        if (!IsPowerOfTen(leaves))
        {
            throw new ArgumentOutOfRangeException(nameof(leaves), leaves, "Skynet's leaves must be a power of ten.");
        }

        return Run(nameof(Skynet), 1, context => context.ActorOf(SkynetNode.Props).Tell(new SkynetStart(0, leaves)));
    }

    /// <summary>
    /// The cache-affinity experiment: one actor per state of <paramref name="actors"/>, one message starting at each
    /// (or at the first <paramref name="messages"/> if fewer), the <paramref name="messages"/> hops split among them.
    /// </summary>
    /// <returns>The messages handled.</returns>
    public long CacheAffinity(ActorStates actors, int accesses, long messages)
    {
        ArgumentNullException.ThrowIfNull(actors);
        ArgumentOutOfRangeException.ThrowIfNegative(accesses);

        // With no message, none would retire, and the stop would never be sent.
        ArgumentOutOfRangeException.ThrowIfLessThan(messages, 1);
        var count = actors.Count;
        var tokens = (int)Math.Min(count, messages);
        using var run = new MessageCount(tokens);
        return Run(nameof(CacheAffinity), count, context =>
        {
            var refs = new IActorRef[count];
            for (var i = 0; i < count; i++)
            {
                refs[i] = context.ActorOf(CacheAffinityActor.Props(refs, i, actors.State[i], accesses, run));
            }

            for (var i = 0; i < tokens; i++)
            {
                refs[i].Tell(new Token((messages / tokens) + (i < messages % tokens ? 1 : 0)));
            }
        });
    }

    /// <summary>Shuts the actor system down and waits for it.</summary>
    public void Dispose()
    {
        if (!_system.Terminate().Wait(Timeout))
        {
            throw new TimeoutException($"The Akka.NET actor system did not terminate within {Timeout.TotalMinutes} minutes.");
        }

        _system.Dispose();
    }

    /// <summary>
    /// Runs one workload: creates its driver, which runs <paramref name="setup"/> in its <c>PreStart</c>, waits for
    /// the driver's answer (the sum of <paramref name="reports"/> results), then stops the driver and waits until
    /// all of the run's actors have stopped.
    /// </summary>
    private long Run(string workload, int reports, Action<IUntypedActorContext> setup)
    {
        var outcome = new RunOutcome();
        var driver = _system.ActorOf(RunDriver.Props(outcome, setup, reports));
        var finished = Task.WaitAny([outcome.Result], Timeout) == 0;
        _system.Stop(driver);
        var stopped = outcome.Stopped.Wait(Timeout);
        if (!finished)
        {
            throw new TimeoutException($"The Akka.NET {workload} run gave no answer within {Timeout.TotalMinutes} minutes.");
        }

        if (!stopped)
        {
            throw new TimeoutException($"The Akka.NET {workload} run's actors did not all stop within {Timeout.TotalMinutes} minutes.");
        }

        return outcome.Result.GetAwaiter().GetResult();
    }

    private static bool IsPowerOfTen(long value)
    {
        while (value >= 10 && value % 10 == 0)
        {
            value /= 10;
        }

        return value == 1;
    }
}
