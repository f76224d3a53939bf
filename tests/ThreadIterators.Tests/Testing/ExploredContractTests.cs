using System;
using System.Collections.Generic;
using System.Linq;
using ThreadIterators;
using ThreadIterators.Testing;

namespace ThreadIterators.Tests;

/// <summary>
/// The exploration tier of the runtime's contract: a selection of its promises (per-sender order, no message lost
/// or duplicated, bounded room, joins, asks against a server that ends, a reply racing a stop of its caller, stops,
/// choices, timers) checked under many seeded schedules of both strategies, rather than under the few interleavings a
/// real scheduler happens to produce.
/// Each body counts every message it sends and receives and throws on the first broken promise.
/// </summary>
public sealed class ExploredContractTests
{
    /// <summary>Runs per strategy: enough to reach rare interleavings, few enough for CI (each run is well under a millisecond).</summary>
    private const int Runs = 300;

    private sealed record Numbered(int Sender, int Number);

    private sealed record Request(ReplyTo<int> Reply);

    public static TheoryData<ExplorationStrategy> Strategies => new() { ExplorationStrategy.Random, ExplorationStrategy.Pct };

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Mailbox_ThreeSenders_EveryMessageArrivesOnceInEachSendersOrder(ExplorationStrategy strategy) => AssertHolds(SendersKeepTheirOrder, strategy);

    [Theory]
    [MemberData(nameof(Strategies))]
    public void BoundedMailbox_TwoProducers_NeverHoldsMoreThanItsCapacityAndLosesNothing(ExplorationStrategy strategy) => AssertHolds(BoundedRoom, strategy);

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Join_TreeOfSpawns_EveryLeafEndsBeforeTheRoot(ExplorationStrategy strategy) => AssertHolds(JoinTree, strategy);

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Ask_ServerEndingAfterThreeRequests_EveryAskGetsAReplyOrTheServersEnd(ExplorationStrategy strategy) => AssertHolds(AsksOutliveTheServer, strategy);

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Stop_ReceiverStoppedWhileMessagesArrive_EveryMessageIsTakenOrStillQueued(ExplorationStrategy strategy) => AssertHolds(StopLosesNothing, strategy);

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Choice_BetweenTwoMailboxes_TakesEveryMessageExactlyOnce(ExplorationStrategy strategy) => AssertHolds(ChoiceTakesEachOnce, strategy);

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Sleep_FiveSleepers_NoneWakesEarly(ExplorationStrategy strategy) => AssertHolds(SleepersWakeNoEarlier, strategy);

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Join_ARingOfThreeJoiningAtOnce_EveryThreadFailsNamingTheCycle_NoneHangs(ExplorationStrategy strategy) => AssertHolds(JoinRing, strategy);

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Rendezvous_ChoicesAndTimeoutsOnBothSides_EachSentPutTakenOnceAndNoOther(ExplorationStrategy strategy) => AssertHolds(RendezvousHandsOver, strategy);

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Ask_ReplyRacingAStopOfTheCaller_IsSeenIfReplyReturnedTrue_ElseADeadLetter_NeverBothNeverNeither(ExplorationStrategy strategy) => AssertHolds(ReplyRacesAStopOfTheCaller, strategy);

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Ask_ServerBoundAtSpawnStoppedWhileAsked_EveryAskGetsAReplyOrTheServersEnd_EveryRequestServedOrADeadLetter(ExplorationStrategy strategy) => AssertHolds(AsksRaceTheEndOfABoundServer, strategy);

    [Fact]
    public void Tier_ABrokenPromise_IsFound()
    {
        // The tier can fail: the same check as SendersKeepTheirOrder, against a receiver that drops every seventh
        // message, fails at once.
        var result = Exploration.Explore(scheduler => SendersKeepTheirOrder(scheduler, dropEvery: 7), new ExplorationOptions { Iterations = Runs });
        Assert.Equal(ExplorationFailure.Exception, result.Failure);
    }

    private static void AssertHolds(Func<Scheduler, IEnumerable<Event>> body, ExplorationStrategy strategy)
    {
        var result = Exploration.Explore(body, new ExplorationOptions { Strategy = strategy, Iterations = Runs });
        Assert.False(result.Failed, result.ToString());
        Assert.Equal(Runs, result.Iterations);
    }

    private static IEnumerable<Event> SendersKeepTheirOrder(Scheduler scheduler) => SendersKeepTheirOrder(scheduler, dropEvery: 0);

    private static IEnumerable<Event> SendersKeepTheirOrder(Scheduler scheduler, int dropEvery)
    {
        const int senders = 3;
        const int each = 8;
        var inbox = new Mailbox<Numbered>("inbox");
        var next = new int[senders];
        var receiver = scheduler.Spawn(Receive(), "receiver");
        var threads = Enumerable.Range(0, senders).Select(s => scheduler.Spawn(Send(s), $"sender {s}")).ToList();
        foreach (var thread in threads)
        {
            yield return thread.Exited;
        }

        inbox.Complete();
        yield return receiver.Exited;
        if (next.Any(n => n != each))
        {
            throw new InvalidOperationException($"received per sender: {string.Join(", ", next)}; expected {each} each");
        }

        IEnumerable<Event> Send(int sender)
        {
            for (var i = 0; i < each; i++)
            {
                inbox.Send(new Numbered(sender, i));
                yield return Event.Yield;
            }
        }

        IEnumerable<Event> Receive()
        {
            var message = inbox.Recv();
            var taken = 0;
            while (true)
            {
                yield return message;
                if (message.IsCompleted)
                {
                    yield break;
                }

                if (dropEvery != 0 && ++taken % dropEvery == 0)
                {
                    continue;
                }

                var (sender, number) = message.Value;
                if (number != next[sender]++)
                {
                    throw new InvalidOperationException($"sender {sender}'s message {number} arrived when {next[sender] - 1} was due");
                }
            }
        }
    }

    private static IEnumerable<Event> BoundedRoom(Scheduler scheduler)
    {
        const int capacity = 2;
        const int each = 6;
        var box = new Mailbox<int>(capacity, "bounded");
        var sum = 0;
        var consumer = scheduler.Spawn(Consume(), "consumer");
        var producers = Enumerable.Range(0, 2).Select(p => scheduler.Spawn(Produce(p), $"producer {p}")).ToList();
        foreach (var producer in producers)
        {
            yield return producer.Exited;
        }

        box.Complete();
        yield return consumer.Exited;
        var expected = Enumerable.Range(0, 2).Sum(p => Enumerable.Range(0, each).Sum(i => (p * 100) + i));
        if (sum != expected)
        {
            throw new InvalidOperationException($"consumed a sum of {sum}; the producers put {expected}");
        }

        IEnumerable<Event> Produce(int producer)
        {
            for (var i = 0; i < each; i++)
            {
                yield return box.Put((producer * 100) + i);
            }
        }

        IEnumerable<Event> Consume()
        {
            var message = box.Recv();
            while (true)
            {
                if (box.Count > capacity)
                {
                    throw new InvalidOperationException($"{box} holds {box.Count} messages, over its capacity of {capacity}");
                }

                yield return message;
                if (message.IsCompleted)
                {
                    yield break;
                }

                sum += message.Value;
            }
        }
    }

    private static IEnumerable<Event> RendezvousHandsOver(Scheduler scheduler)
    {
        // Two senders put into one of two rendezvous mailboxes, alone, in a choice of both, or with a timeout; the
        // receiver takes with Recv, TryRecv, a choice of both and a timed receive. Every put reported sent is taken
        // exactly once, and nothing else is.
        const int each = 6;
        var first = new Mailbox<int>(0, "first");
        var second = new Mailbox<int>(0, "second");
        var sent = new List<int>();
        var taken = new List<int>();
        var senders = Enumerable.Range(0, 2).Select(s => scheduler.Spawn(Produce(s), $"sender {s}")).ToList();
        var receiver = scheduler.Spawn(Consume(), "receiver");
        foreach (var sender in senders)
        {
            yield return sender.Exited;
        }

        first.Complete();
        second.Complete();
        yield return receiver.Exited;
        sent.Sort();
        taken.Sort();
        if (!sent.SequenceEqual(taken))
        {
            throw new InvalidOperationException($"sent [{string.Join(", ", sent)}] but took [{string.Join(", ", taken)}]");
        }

        IEnumerable<Event> Produce(int sender)
        {
            var toFirst = first.CreatePutEvent();
            var toSecond = second.CreatePutEvent();
            var either = new Choice(toFirst, toSecond);
            for (var i = 0; i < each; i++)
            {
                var message = (sender * 100) + i;
                switch (i % 3)
                {
                    case 0:
                        yield return first.Put(message);
                        sent.Add(message);
                        break;
                    case 1:
                        yield return Arm(toFirst, toSecond, message, either);
                        if (toFirst.IsSent == toSecond.IsSent)
                        {
                            throw new InvalidOperationException($"{message}: a choice of two puts sent {(toFirst.IsSent ? "both" : "neither")}");
                        }

                        sent.Add(message);
                        break;
                    default:
                        var timed = second.Put(message).WithTimeout(TimeSpan.FromMilliseconds(1));
                        yield return timed;
                        if (!timed.TimedOut)
                        {
                            sent.Add(message);
                        }

                        break;
                }
            }
        }

        IEnumerable<Event> Consume()
        {
            var fromFirst = first.Recv();
            var fromSecond = second.Recv();
            var either = new Choice(fromFirst, fromSecond);
            var timed = fromSecond.WithTimeout(TimeSpan.FromMilliseconds(1));
            for (var round = 0; !(fromFirst.IsCompleted && fromSecond.IsCompleted); round++)
            {
                if (round % 4 == 0 && !fromFirst.IsCompleted && first.TryRecv(out var tried))
                {
                    taken.Add(tried);
                }
                else if (round % 4 == 1 && !fromSecond.IsCompleted)
                {
                    yield return timed;
                    if (!timed.TimedOut && !fromSecond.IsCompleted)
                    {
                        taken.Add(fromSecond.Value);
                    }
                }
                else if (!fromFirst.IsCompleted && !fromSecond.IsCompleted)
                {
                    yield return either;
                    var receive = either.Index == 0 ? fromFirst : fromSecond;
                    if (!receive.IsCompleted)
                    {
                        taken.Add(receive.Value);
                    }
                }
                else
                {
                    var receive = fromFirst.IsCompleted ? fromSecond : fromFirst;
                    yield return receive;
                    if (!receive.IsCompleted)
                    {
                        taken.Add(receive.Value);
                    }
                }
            }
        }

        static Choice Arm(PutEvent<int> a, PutEvent<int> b, int message, Choice choice)
        {
            a.For(message);
            b.For(message);
            return choice;
        }
    }

    private static IEnumerable<Event> JoinRing(Scheduler scheduler)
    {
        const int count = 3;
        var threads = new GreenThread?[count];
        for (var i = 0; i < count; i++)
        {
            threads[i] = scheduler.Spawn(JoinNext(i), $"joiner {i}");
        }

        foreach (var thread in threads)
        {
            yield return thread!.Ended;
            if (thread.Exception is not InvalidOperationException { Message: var message } || !message.StartsWith("A cycle of joins", StringComparison.Ordinal))
            {
                throw new InvalidOperationException($"{thread} ended {thread.Outcome} with {thread.Exception}, not with the cycle named");
            }
        }

        IEnumerable<Event> JoinNext(int index)
        {
            // Each joins the next as soon as that one exists; who closes the ring is up to the schedule.
            while (threads[(index + 1) % count] is null)
            {
                yield return Event.Yield;
            }

            yield return threads[(index + 1) % count]!.Exited;
        }
    }

    private static IEnumerable<Event> JoinTree(Scheduler scheduler)
    {
        var ended = 0;
        var root = scheduler.Spawn(Node(depth: 3), "root");
        yield return root.Exited;
        if (ended != 27)
        {
            throw new InvalidOperationException($"{ended} leaves ended before the root; expected 27");
        }

        IEnumerable<Event> Node(int depth)
        {
            if (depth == 0)
            {
                ended++;
                yield break;
            }

            var children = Enumerable.Range(0, 3).Select(i => scheduler.Spawn(Node(depth - 1), $"node {depth}.{i}")).ToList();
            foreach (var child in children)
            {
                yield return child.Exited;
            }
        }
    }

    private static IEnumerable<Event> AsksOutliveTheServer(Scheduler scheduler)
    {
        const int clients = 5;
        const int served = 3;
        var inbox = new Mailbox<Request>("server");
        int replies = 0, serverEnded = 0;
        // Some clients ask before the server first receives: they watch it from its first receive on.
        var server = scheduler.Spawn(Serve(), "server");
        var threads = Enumerable.Range(0, clients).Select(c => scheduler.Spawn(Ask(), $"client {c}")).ToList();
        foreach (var thread in threads)
        {
            yield return thread.Exited;
        }

        yield return server.Exited;
        if (replies != served || serverEnded != clients - served)
        {
            throw new InvalidOperationException($"{replies} replies and {serverEnded} server ends; expected {served} and {clients - served}");
        }

        IEnumerable<Event> Serve()
        {
            var request = inbox.Recv();
            for (var i = 0; i < served; i++)
            {
                yield return request;
                request.Value.Reply.Reply(i);
            }
        }

        IEnumerable<Event> Ask()
        {
            var ask = inbox.Ask((ReplyTo<int> reply) => new Request(reply), System.Threading.Timeout.InfiniteTimeSpan);
            yield return ask;
            if (ask.Exception is ServerEndedException)
            {
                serverEnded++;
            }
            else
            {
                _ = ask.Value;
                replies++;
            }
        }
    }

    private static IEnumerable<Event> ReplyRacesAStopOfTheCaller(Scheduler scheduler)
    {
        // The server replies and a third thread stops the caller, in whichever order the schedule picks, once the
        // caller has made its ask: before its park on the ask (which, at a budget of one step, is always deferred to
        // its next turn), parked, woken by the reply and not yet run, or done.
        var inbox = new Mailbox<Request>("server");
        bool? delivered = null;
        AskEvent<int>? asked = null;
        var seen = 0;
        var server = scheduler.SpawnReceiver(inbox, Serve(), "server");
        var caller = scheduler.Spawn(Ask(), "caller");
        var stopper = scheduler.Spawn(StopTheCaller(), "stopper");
        yield return server.Exited;
        yield return stopper.Exited;
        yield return caller.Ended;
        var lettered = scheduler.DeadLetterCount;
        if (delivered is not { } replied || seen + lettered != 1 || (replied ? seen : lettered) != 1)
        {
            throw new InvalidOperationException($"Reply() returned {delivered}; the caller read the reply {seen} times; {lettered} dead letters");
        }

        IEnumerable<Event> Serve()
        {
            var request = inbox.Recv();
            yield return request;
            delivered = request.Value.Reply.Reply(1);
        }

        IEnumerable<Event> Ask()
        {
            var ask = inbox.Ask((ReplyTo<int> reply) => new Request(reply), System.Threading.Timeout.InfiniteTimeSpan);
            asked = ask;
            yield return ask;
            _ = ask.Value;
            seen++;
            yield return Event.Yield;
        }

        IEnumerable<Event> StopTheCaller()
        {
            while (asked is null)
            {
                yield return Event.Yield;
            }

            caller.Stop("racing the reply");
        }
    }

    private static IEnumerable<Event> AsksRaceTheEndOfABoundServer(Scheduler scheduler)
    {
        // The server is its mailbox's receiver from its spawn, and is stopped at a step the schedule picks: before it
        // first ran, before its first receive, or between requests. Each client asks twice.
        const int clients = 3;
        const int asksEach = 2;
        var inbox = new Mailbox<Request>("server");
        int served = 0, replies = 0, serverEnded = 0;
        var server = scheduler.SpawnReceiver(inbox, Serve(), "server");
        var threads = Enumerable.Range(0, clients).Select(c => scheduler.Spawn(Ask(), $"client {c}")).ToList();
        var stopper = scheduler.Spawn(StopTheServer(), "stopper");
        foreach (var thread in threads)
        {
            yield return thread.Exited;
        }

        yield return stopper.Exited;
        yield return server.Ended;
        var lettered = scheduler.DeadLetterCount;
        if (replies + serverEnded != clients * asksEach || replies != served || lettered != serverEnded)
        {
            throw new InvalidOperationException($"{replies} replies and {serverEnded} server ends of {clients * asksEach} asks; {served} served, {lettered} dead letters");
        }

        IEnumerable<Event> Serve()
        {
            yield return Event.Yield;
            var request = inbox.Recv();
            while (true)
            {
                yield return request;
                served++;
                if (!request.Value.Reply.Reply(served))
                {
                    throw new InvalidOperationException("a served request's caller stopped waiting");
                }
            }
        }

        IEnumerable<Event> StopTheServer()
        {
            server.Stop("racing the asks");
            yield break;
        }

        IEnumerable<Event> Ask()
        {
            for (var i = 0; i < asksEach; i++)
            {
                var ask = inbox.Ask((ReplyTo<int> reply) => new Request(reply), System.Threading.Timeout.InfiniteTimeSpan);
                yield return ask;
                if (ask.Exception is ServerEndedException ended && ended.Server == server)
                {
                    serverEnded++;
                }
                else
                {
                    _ = ask.Value;
                    replies++;
                }
            }
        }
    }

    private static IEnumerable<Event> StopLosesNothing(Scheduler scheduler)
    {
        var inbox = new Mailbox<int>("outliving") { OutlivesReceiver = true };
        var taken = 0;
        yield return Event.Call(StopWhileMessagesArrive(scheduler, inbox, Receive(), () => taken));

        IEnumerable<Event> Receive()
        {
            var message = inbox.Recv();
            while (true)
            {
                yield return message;
                taken++;
            }
        }
    }

    /// <summary>
    /// Runs <paramref name="receive"/> as <paramref name="inbox"/>'s receiver while a sender sends it six messages, and
    /// stops it at a step the schedule picks: every message is then taken (<paramref name="taken"/> counts them) or
    /// still queued. The inbox must outlive its receiver, so that what is left can be counted.
    /// </summary>
    internal static IEnumerable<Event> StopWhileMessagesArrive(Scheduler scheduler, Mailbox<int> inbox, IEnumerable<Event> receive, Func<int> taken)
    {
        const int sent = 6;
        var receiver = scheduler.Spawn(receive, "receiver");
        var sender = scheduler.Spawn(Send(), "sender");
        yield return Event.Yield;
        receiver.Stop("test");
        yield return sender.Exited;
        yield return receiver.Ended;
        var left = 0;
        while (inbox.TryRecv(out _))
        {
            left++;
        }

        if (taken() + left != sent)
        {
            throw new InvalidOperationException($"{taken()} taken and {left} left of {sent} sent");
        }

        IEnumerable<Event> Send()
        {
            for (var i = 0; i < sent; i++)
            {
                inbox.Send(i);
                yield return Event.Yield;
            }
        }
    }

    private static IEnumerable<Event> ChoiceTakesEachOnce(Scheduler scheduler)
    {
        const int each = 5;
        var left = new Mailbox<int>("left");
        var right = new Mailbox<int>("right");
        var seen = new HashSet<int>();
        var chooser = scheduler.Spawn(Choose(), "chooser");
        var senders = new[] { scheduler.Spawn(Send(left, 0), "left sender"), scheduler.Spawn(Send(right, 100), "right sender") };
        foreach (var sender in senders)
        {
            yield return sender.Exited;
        }

        yield return chooser.Exited;

        IEnumerable<Event> Send(Mailbox<int> box, int offset)
        {
            for (var i = 0; i < each; i++)
            {
                box.Send(offset + i);
                yield return Event.Yield;
            }
        }

        IEnumerable<Event> Choose()
        {
            var fromLeft = left.Recv();
            var fromRight = right.Recv();
            var choice = new Choice(fromLeft, fromRight);
            while (seen.Count < 2 * each)
            {
                yield return choice;
                var value = choice.Index == 0 ? fromLeft.Value : fromRight.Value;
                if (!seen.Add(value))
                {
                    throw new InvalidOperationException($"message {value} was taken twice");
                }
            }
        }
    }

    private static IEnumerable<Event> SleepersWakeNoEarlier(Scheduler scheduler)
    {
        // A sleep counts from when its thread parks on it, which the strategy may delay (time moves while a thread
        // waits for its turn, as it would on a busy machine): so the promise is no early wake, for every sleeper.
        var clock = scheduler.TimeProvider;
        var woken = 0;
        var sleepers = Enumerable.Range(1, 5).Reverse().Select(s => scheduler.Spawn(Sleep(s), $"sleeper {s}")).ToList();
        foreach (var sleeper in sleepers)
        {
            yield return sleeper.Exited;
        }

        if (woken != 5)
        {
            throw new InvalidOperationException($"{woken} of 5 sleepers woke");
        }

        IEnumerable<Event> Sleep(int seconds)
        {
            var start = clock.GetUtcNow();
            yield return Event.Sleep(TimeSpan.FromSeconds(seconds));
            var slept = clock.GetUtcNow() - start;
            if (slept < TimeSpan.FromSeconds(seconds))
            {
                throw new InvalidOperationException($"a sleep of {seconds} s woke after {slept}");
            }

            woken++;
        }
    }
}
