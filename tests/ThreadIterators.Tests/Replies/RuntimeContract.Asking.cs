using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Request-reply under every configuration: an ask completes with the reply, with the server's end at once, or with
/// its timeout, whichever comes first; an answer that comes after the caller stopped waiting is a dead letter, never
/// delivered to a later ask.
/// </summary>
public abstract partial class RuntimeContract
{
    /// <summary>How a server ends before it replies.</summary>
    public enum ServerEnd
    {
        Completes,
        Faults,
        IsStopped,
        HadEndedBeforeTheAsk,
    }

    [Fact]
    public async Task Ask_ManyCallersGreenAndAsync_EachGetsItsOwnReply_NoneLostOrCrossed()
    {
        const int Callers = 4;
        const int AsksEach = 250;
        var requests = new Mailbox<Doubling>("doubler");
        var server = Scheduler.Spawn(DoubleForever(requests), "doubler");
        var sums = new long[Callers];
        var callers = Enumerable.Range(0, Callers).Select(c => Scheduler.Spawn(AskMany(c), $"caller {c}")).ToArray();

        // Async callers beside the green ones, at the same server.
        var asyncSum = 0L;
        for (var i = 0; i < AsksEach; i++)
        {
            var n = 1_000_000 + i;
            asyncSum += await requests.AskAsync((ReplyTo<long> reply) => new Doubling(n, reply), Timeout).WaitAsync(Timeout);
        }

        Array.ForEach(callers, Join);
        for (var c = 0; c < Callers; c++)
        {
            Assert.Equal(2L * Enumerable.Range(c * AsksEach, AsksEach).Sum(i => (long)i), sums[c]);
        }

        Assert.Equal(2L * Enumerable.Range(1_000_000, AsksEach).Sum(i => (long)i), asyncSum);
        Assert.Equal(0, Scheduler.DeadLetterCount);
        server.Stop();

        IEnumerable<Event> AskMany(int caller)
        {
            for (var i = caller * AsksEach; i < (caller + 1) * AsksEach; i++)
            {
                var n = i;
                var ask = requests.Ask((ReplyTo<long> reply) => new Doubling(n, reply), Timeout);
                yield return ask;
                Assert.False(ask.TimedOut);
                Assert.Null(ask.Exception);
                sums[caller] += ask.Value;
            }
        }
    }

    [Fact]
    public void Ask_ReplyAfterTheTimeout_GoesToTheDeadLetters_AndNeverReachesTheCallersNextAsk()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var letters = new ConcurrentQueue<DeadLetterEventArgs>();
        scheduler.DeadLetter += (_, e) => letters.Enqueue(e);
        var requests = new Mailbox<Doubling>("slow doubler");
        var held = new ConcurrentQueue<Doubling>();
        var replies = new List<long>();
        var outcomes = new List<string>();
        var server = scheduler.Spawn(HoldRequests(requests, held), "slow server");
        var caller = scheduler.Spawn(AskTwice(), "caller");
        WaitUntil(() => held.Count == 1, "the server holds the first request");
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the first ask's deadline is pending");
        clock.Advance(TimeSpan.FromSeconds(1));
        WaitUntil(() => outcomes.Count == 1, "the first ask times out");
        Assert.Equal(["timed out"], outcomes);

        // The late reply: refused, counted, raised with the reply target and the caller.
        Assert.True(held.TryDequeue(out var first));
        Assert.False(first.Reply.IsWaiting);
        Assert.False(first.Reply.Reply(first.Value * 2));
        Assert.Equal(1, scheduler.DeadLetterCount);
        var letter = Assert.Single(letters);
        Assert.Equal(DeadLetterReason.LateReply, letter.Reason);
        Assert.Equal(2L, letter.Message);
        Assert.Same(first.Reply, letter.Mailbox);
        Assert.Same(caller, letter.Receiver);
        Assert.Contains("timed out", letter.Mailbox.ToString(), StringComparison.Ordinal);

        // The next ask gets its own reply, not the late one.
        WaitUntil(() => held.Count == 1, "the server holds the second request");
        Assert.True(held.TryDequeue(out var second));
        Assert.True(second.Reply.IsWaiting);
        Assert.True(second.Reply.Reply(second.Value * 2));
        Assert.True(caller.Wait(Timeout));
        Assert.Equal([20L], replies);
        Assert.Equal(1, scheduler.DeadLetterCount);
        server.Stop();

        IEnumerable<Event> AskTwice()
        {
            var ask = requests.Ask((ReplyTo<long> reply) => new Doubling(1, reply), TimeSpan.FromSeconds(1));
            yield return ask;
            outcomes.Add(ask.TimedOut ? "timed out" : "replied");
            Assert.IsType<TimeoutException>(ask.Exception);
            Assert.Throws<TimeoutException>(() => ask.Value);
            var again = requests.Ask((ReplyTo<long> reply) => new Doubling(10, reply), System.Threading.Timeout.InfiniteTimeSpan);
            yield return again;
            replies.Add(again.Value);
        }
    }

    [Fact]
    public async Task AskAsync_ReplyAfterTheTimeout_FailsTheTaskWithATimeout_AndTheReplyIsADeadLetter()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var requests = new Mailbox<Doubling>("slow doubler");
        var held = new ConcurrentQueue<Doubling>();
        var server = scheduler.Spawn(HoldRequests(requests, held), "slow server");
        WaitUntil(() => requests.IsReceiverParked, "the server waits");
        var ask = requests.AskAsync((ReplyTo<long> reply) => new Doubling(3, reply), TimeSpan.FromSeconds(2));
        WaitUntil(() => held.Count == 1, "the server holds the request");
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the deadline is pending");
        clock.Advance(TimeSpan.FromSeconds(2) - TimeSpan.FromTicks(1));
        Assert.False(ask.IsCompleted, "not a tick early");
        clock.Advance(TimeSpan.FromTicks(1));
        var timeout = await Assert.ThrowsAsync<TimeoutException>(() => ask.WaitAsync(Timeout));
        Assert.Contains("'slow doubler'", timeout.Message, StringComparison.Ordinal);
        Assert.True(held.TryDequeue(out var request));
        Assert.False(request.Reply.Reply(6));
        Assert.Equal(1, scheduler.DeadLetterCount);
        server.Stop();
    }

    [Theory]
    [InlineData(ServerEnd.Completes)]
    [InlineData(ServerEnd.Faults)]
    [InlineData(ServerEnd.IsStopped)]
    [InlineData(ServerEnd.HadEndedBeforeTheAsk)]
    public async Task Ask_ServerThatEndsBeforeReplying_FailsTheAskAtOnce_WithItsEnd_NotAtTheTimeout(ServerEnd end)
    {
        // No timeout at all: only the server's end can complete these asks.
        var requests = new Mailbox<Doubling>("mortal server");
        var release = new Mailbox<int>("release");
        var server = Scheduler.Spawn(TakeOneThenEnd(), "mortal");
        if (end == ServerEnd.HadEndedBeforeTheAsk)
        {
            Run(AskOnce(), "first caller");
            release.Send(0);
            WaitUntil(() => server.IsCompleted, "the server ends");
        }

        WaitUntil(() => server.IsCompleted || requests.IsReceiverParked || release.IsReceiverParked, "the server is in place");
        Exception? green = null;
        var caller = Scheduler.Spawn(AskForever(e => green = e), "green caller");
        var task = requests.AskAsync((ReplyTo<long> reply) => new Doubling(2, reply), System.Threading.Timeout.InfiniteTimeSpan);
        switch (end)
        {
            case ServerEnd.Completes:
            case ServerEnd.Faults:
                WaitUntil(() => release.IsReceiverParked, "the server holds a request");
                release.Send(0);
                break;
            case ServerEnd.IsStopped:
                WaitUntil(() => release.IsReceiverParked, "the server holds a request");
                server.Stop("enough");
                break;
        }

        Join(caller);
        var failure = await Assert.ThrowsAsync<ServerEndedException>(() => task.WaitAsync(Timeout));
        foreach (var exception in new[] { Assert.IsType<ServerEndedException>(green), failure })
        {
            Assert.Same(server, exception.Server);
            Assert.Contains("'mortal'", exception.Message, StringComparison.Ordinal);
            var expected = end switch
            {
                ServerEnd.Completes or ServerEnd.HadEndedBeforeTheAsk => ThreadOutcome.Completed,
                ServerEnd.Faults => ThreadOutcome.Faulted,
                _ => ThreadOutcome.Canceled,
            };
            Assert.Equal(expected, exception.Outcome);
            if (end == ServerEnd.Faults)
            {
                Assert.Equal("the server breaks", exception.InnerException!.Message);
            }
        }

        // The ask's watch does not observe the server's fault: it is still reported unless someone else does.
        if (end == ServerEnd.Faults)
        {
            ExpectUnobservedFaults = true;
            await Scheduler.DisposeAsync().AsTask().WaitAsync(Timeout);
            Assert.Contains(Unobserved, e => e.Thread == server);
        }

        IEnumerable<Event> TakeOneThenEnd()
        {
            var request = requests.Recv();
            yield return request;
            if (end == ServerEnd.HadEndedBeforeTheAsk)
            {
                request.Value.Reply.Reply(0);
            }

            yield return release.Recv();
            if (end == ServerEnd.Faults)
            {
                throw new InvalidOperationException("the server breaks");
            }
        }

        IEnumerable<Event> AskOnce()
        {
            var ask = requests.Ask((ReplyTo<long> reply) => new Doubling(0, reply), Timeout);
            yield return ask;
            Assert.Equal(0, ask.Value);
        }

        IEnumerable<Event> AskForever(Action<Exception?> seen)
        {
            var ask = requests.Ask((ReplyTo<long> reply) => new Doubling(1, reply), System.Threading.Timeout.InfiniteTimeSpan);
            yield return ask;
            seen(ask.Exception);
            Assert.False(ask.TimedOut);
        }
    }

    [Fact]
    public async Task Ask_BeforeTheServerFirstReceives_TheServerEndingWithTheRequestQueuedFailsTheAsk()
    {
        // Found by the exploration tier: with no receiver to watch when it asked, an ask whose request the server
        // left queued at its end (a dead letter) used to wait forever. It now watches the first receiver.
        var requests = new Mailbox<Doubling>("late server");
        long? answered = null;
        var caller = Scheduler.Spawn(AskFirst(), "early caller");
        WaitUntil(() => requests.Count == 1, "the green ask's request is queued");
        var task = requests.AskAsync((ReplyTo<long> reply) => new Doubling(5, reply), System.Threading.Timeout.InfiniteTimeSpan);
        Assert.Equal(2, requests.Count);
        var server = Scheduler.Spawn(AnswerOneThenEnd(), "answers once");

        Join(caller);
        Assert.Equal(8, answered);
        var failure = await Assert.ThrowsAsync<ServerEndedException>(() => task.WaitAsync(Timeout));
        Assert.Same(server, failure.Server);
        Assert.Equal(ThreadOutcome.Completed, failure.Outcome);

        IEnumerable<Event> AskFirst()
        {
            var ask = requests.Ask((ReplyTo<long> reply) => new Doubling(4, reply), System.Threading.Timeout.InfiniteTimeSpan);
            yield return ask;
            answered = ask.Value;
        }

        IEnumerable<Event> AnswerOneThenEnd()
        {
            var request = requests.Recv();
            yield return request;
            request.Value.Reply.Reply(request.Value.Value * 2);
        }
    }

    [Fact]
    public void Ask_ServerAnswersWithFail_TheCallerReadsThatException()
    {
        var requests = new Mailbox<Doubling>("picky");
        var server = Scheduler.Spawn(Refuse(), "picky server");
        var seen = new List<string>();
        Run(AskOnce(), "caller");
        Assert.Equal(["odd: 3"], seen);
        server.Stop();

        IEnumerable<Event> Refuse()
        {
            var next = requests.Recv();
            while (true)
            {
                yield return next;
                Assert.True(next.Value.Reply.Fail(new ArgumentException($"odd: {next.Value.Value}")));
                var again = Assert.Throws<InvalidOperationException>(() => next.Value.Reply.Reply(1));
                Assert.Contains("answered already", again.Message, StringComparison.Ordinal);
            }
        }

        IEnumerable<Event> AskOnce()
        {
            var ask = requests.Ask((ReplyTo<long> reply) => new Doubling(3, reply), Timeout);
            yield return ask;
            seen.Add(Assert.Throws<ArgumentException>(() => ask.Value).Message);
        }
    }

    [Fact]
    public void Ask_AsABranchOfAChoice_TheCallerServesOtherMessagesWhileItWaits()
    {
        var requests = new Mailbox<Doubling>("doubler");
        var held = new ConcurrentQueue<Doubling>();
        var chatter = new Mailbox<int>("chatter");
        var heard = new List<int>();
        long reply = 0;
        var server = Scheduler.Spawn(HoldRequests(requests, held), "server");
        var caller = Scheduler.Spawn(AskWhileListening(), "caller");
        for (var i = 0; i < 5; i++)
        {
            chatter.Send(i);
        }

        WaitUntil(() => held.Count == 1 && heard.Count == 5 && chatter.IsReceiverParked, "the caller hears the chatter while it waits");
        Assert.True(held.TryDequeue(out var request));
        Assert.True(request.Reply.Reply(request.Value * 2));
        Join(caller);
        Assert.Equal(14, reply);
        Assert.Equal([0, 1, 2, 3, 4], heard);
        server.Stop();

        IEnumerable<Event> AskWhileListening()
        {
            var ask = requests.Ask((ReplyTo<long> r) => new Doubling(7, r), Timeout);
            var either = new Choice(ask, chatter.Recv());
            while (true)
            {
                yield return either;
                if (either.Index == 0)
                {
                    reply = ask.Value;
                    yield break;
                }

                heard.Add(chatter.Recv().Value);
            }
        }
    }

    [Fact]
    public void Ask_CallerStoppedWhileItWaits_ItsLateReplyIsADeadLetter()
    {
        var requests = new Mailbox<Doubling>("doubler");
        var held = new ConcurrentQueue<Doubling>();
        var letters = new ConcurrentQueue<DeadLetterEventArgs>();
        Scheduler.DeadLetter += (_, e) => letters.Enqueue(e);
        var server = Scheduler.Spawn(HoldRequests(requests, held), "server");
        var caller = Scheduler.Spawn(AskOnce(), "doomed caller");
        WaitUntil(() => held.Count == 1, "the server holds the request");
        caller.Stop("enough");
        WaitUntil(() => caller.IsCompleted, "the caller ends");
        Assert.True(held.TryDequeue(out var request));
        Assert.False(request.Reply.IsWaiting);
        Assert.False(request.Reply.Reply(8));
        var letter = Assert.Single(letters);
        Assert.Equal(DeadLetterReason.LateReply, letter.Reason);
        Assert.Same(caller, letter.Receiver);
        server.Stop();

        IEnumerable<Event> AskOnce()
        {
            var ask = requests.Ask((ReplyTo<long> r) => new Doubling(4, r), System.Threading.Timeout.InfiniteTimeSpan);
            yield return ask;
            Assert.Fail("a stopped caller never reads its ask");
        }
    }

    [Fact]
    public void Ask_ReplyRacingAStopOfTheCaller_IsSeenIfReplyReturnedTrue_ElseADeadLetter_NeverBothNeverNeither()
    {
        // Each round a server replies while the test stops the caller, as close together as two OS threads get them.
        // A reply that Reply() reports delivered is read by the caller (before the stop ends it, at its next wait);
        // one it reports undelivered is a dead letter; never both, never neither.
        const int rounds = 300;
        var letters = new ConcurrentQueue<DeadLetterEventArgs>();
        Scheduler.DeadLetter += (_, e) => letters.Enqueue(e);
        int delivered = 0, seen = 0, refused = 0;
        for (var round = 0; round < rounds; round++)
        {
            var requests = new Mailbox<Doubling>($"server {round}");
            var held = new ConcurrentQueue<Doubling>();
            var server = Scheduler.Spawn(HoldRequests(requests, held), "server");
            var saw = 0;
            AskEvent<long>? asked = null;
            var caller = Scheduler.Spawn(AskOnce(requests, ask => Volatile.Write(ref asked, ask), () => saw = 1), "caller");
            WaitUntil(() => held.Count == 1 && Volatile.Read(ref asked) is { } ask && Probe.IsParkedOn(ask, caller), "the server holds the request and the caller is parked on its ask");
            Assert.True(held.TryDequeue(out var request));
            var lettersBefore = letters.Count;
            var replied = false;
            var replier = new Thread(() => replied = request.Reply.Reply(request.Value * 2));
            replier.Start();
            caller.Stop("enough");
            replier.Join();
            WaitUntil(() => caller.IsCompleted, "the caller ends");
            server.Stop();
            WaitUntil(() => server.IsCompleted, "the server ends");
            var lettered = letters.Count - lettersBefore;
            if (replied)
            {
                delivered++;
                Assert.True(saw == 1, $"round {round}: Reply() returned true, but the caller never read the reply");
                Assert.Equal(0, lettered);
            }
            else
            {
                refused++;
                Assert.True(saw == 0, $"round {round}: Reply() returned false, but the caller read the reply");
                Assert.Equal(1, lettered);
            }

            seen += saw;
        }

        Assert.Equal(rounds, delivered + refused);
        Assert.Equal(delivered, seen);

        static IEnumerable<Event> AskOnce(Mailbox<Doubling> requests, Action<AskEvent<long>> made, Action read)
        {
            var ask = requests.Ask((ReplyTo<long> r) => new Doubling(4, r), System.Threading.Timeout.InfiniteTimeSpan);
            made(ask);
            yield return ask;
            Assert.Equal(8, ask.Value);
            read();
            yield return Event.Yield;
        }
    }

    [Fact]
    public async Task AskAsync_Canceled_CancelsTheTask_AndTheLateReplyIsADeadLetter()
    {
        var requests = new Mailbox<Doubling>("doubler");
        var held = new ConcurrentQueue<Doubling>();
        var server = Scheduler.Spawn(HoldRequests(requests, held), "server");
        WaitUntil(() => requests.IsReceiverParked, "the server waits");
        using var cancel = new CancellationTokenSource();
        var ask = requests.AskAsync((ReplyTo<long> r) => new Doubling(5, r), System.Threading.Timeout.InfiniteTimeSpan, cancel.Token);
        WaitUntil(() => held.Count == 1, "the server holds the request");
        await cancel.CancelAsync();
        var canceled = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => ask.WaitAsync(Timeout));
        Assert.Equal(cancel.Token, canceled.CancellationToken);
        Assert.True(held.TryDequeue(out var request));
        Assert.False(request.Reply.Reply(10));
        Assert.Equal(1, Scheduler.DeadLetterCount);
        server.Stop();
    }

    [Fact]
    public void Ask_ReplyRacingTheTimeout_EitherTheCallerGetsItOrItIsADeadLetter_NeverBothNeverNeither()
    {
        const int Rounds = 100;
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var requests = new Mailbox<Doubling>("racing server");
        var held = new ConcurrentQueue<Doubling>();
        var outcomes = new ConcurrentQueue<long>();
        var go = new Mailbox<int>("go");
        var server = scheduler.Spawn(HoldRequests(requests, held), "racing server");
        var caller = scheduler.Spawn(AskRacing(), "racing caller");
        var replied = 0;
        for (var round = 0; round < Rounds; round++)
        {
            // One ask at a time: an advance that comes after a quick reply must not reach the next ask's deadline.
            go.Send(round);
            WaitUntil(() => held.Count == 1 && Probe.TimersSettled(scheduler, 1), $"round {round}: the request is held and its deadline pending");
            Assert.True(held.TryDequeue(out var request));
            using var start = new Barrier(2);
            var delivered = false;
            var replier = new Thread(() =>
            {
                start.SignalAndWait();
                delivered = request.Reply.Reply(round);
            });
            replier.Start();
            start.SignalAndWait();
            clock.Advance(TimeSpan.FromMilliseconds(1));
            Assert.True(replier.Join(Timeout), "the replier finishes");
            WaitUntil(() => outcomes.Count == round + 1, $"round {round}: the caller sees its outcome");

            // The caller saw the reply exactly when Reply said it was delivered; otherwise a timeout, and a dead letter.
            Assert.Equal(delivered ? round : -1, outcomes.Last());
            replied += delivered ? 1 : 0;
            Assert.Equal(round + 1 - replied, scheduler.DeadLetterCount);
        }

        Assert.True(caller.Wait(Timeout));
        server.Stop();

        IEnumerable<Event> AskRacing()
        {
            var next = go.Recv();
            for (var i = 0; i < Rounds; i++)
            {
                yield return next;
                var ask = requests.Ask((ReplyTo<long> r) => new Doubling(i, r), TimeSpan.FromMilliseconds(1));
                yield return ask;
                outcomes.Enqueue(ask.TimedOut ? -1 : ask.Value);
            }
        }
    }

    [Fact]
    public void Ask_MisusedOrRefused_ThrowsNamingTheCulprit()
    {
        var requests = new Mailbox<Doubling>("misused");
        var outside = Assert.Throws<InvalidOperationException>(() => requests.Ask((ReplyTo<long> r) => new Doubling(1, r), Timeout));
        Assert.Contains("AskAsync", outside.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentOutOfRangeException>(() => { _ = requests.AskAsync((ReplyTo<long> r) => new Doubling(1, r), TimeSpan.FromMilliseconds(-2)); });
        Assert.Throws<ArgumentNullException>(() => { _ = requests.AskAsync<Doubling, long>(null!, Timeout); });

        var bounded = new Mailbox<Doubling>(1, "tiny");
        var errors = new List<string>();
        var self = new Mailbox<Doubling>("own");
        Run(Misuse(), "misuser");
        Assert.Equal(3, errors.Count);
        Assert.Contains("'tiny'", errors[0], StringComparison.Ordinal);
        Assert.Contains("full", errors[0], StringComparison.Ordinal);
        Assert.Contains("'own'", errors[1], StringComparison.Ordinal);
        Assert.Contains("before the ask completed", errors[2], StringComparison.Ordinal);

        // Another thread yielding the ask is faulted, naming both.
        AskEvent<long>? stolen = null;
        var maker = Scheduler.Spawn(MakeAsk(), "maker");
        Join(maker);
        var thief = Scheduler.Spawn(Yield(stolen!), "thief");
        var fault = Assert.Throws<InvalidOperationException>(() => Join(thief));
        Assert.Contains("'thief'", fault.Message, StringComparison.Ordinal);
        Assert.Contains("'maker'", fault.Message, StringComparison.Ordinal);

        IEnumerable<Event> Misuse()
        {
            Assert.True(bounded.TrySend(new Doubling(0, null!)));
            errors.Add(Assert.Throws<InvalidOperationException>(() => bounded.Ask((ReplyTo<long> r) => new Doubling(1, r), Timeout)).Message);
            var own = self.TryRecv(out _);
            Assert.False(own);
            errors.Add(Assert.Throws<InvalidOperationException>(() => self.Ask((ReplyTo<long> r) => new Doubling(1, r), Timeout)).Message);
            var pending = bounded.Count == 1 ? requests.Ask((ReplyTo<long> r) => new Doubling(1, r), System.Threading.Timeout.InfiniteTimeSpan) : null;
            errors.Add(Assert.Throws<InvalidOperationException>(() => pending!.Value).Message);
            yield break;
        }

        IEnumerable<Event> MakeAsk()
        {
#pragma warning disable TI0002 // Made to be yielded by another thread, which is the misuse under test.
            stolen = requests.Ask((ReplyTo<long> r) => new Doubling(1, r), System.Threading.Timeout.InfiniteTimeSpan);
#pragma warning restore TI0002
            yield break;
        }

        static IEnumerable<Event> Yield(Event e)
        {
            yield return e;
        }
    }

    [Fact]
    public void Ask_ToAMailboxThatOutlivesItsReceiver_BetweenTwoReceivers_WaitsForTheNextOne()
    {
        var requests = new Mailbox<Doubling>("handed over") { OutlivesReceiver = true };
        var first = Scheduler.Spawn(ServeOne(), "first server");
        Run(AskOnce(2), "first caller");
        Join(first);
        var caller = Scheduler.Spawn(AskOnce(3), "second caller");
        WaitUntil(() => requests.Count == 1, "the request waits for the next server");
        Assert.False(caller.IsCompleted, "no server to watch: the ask waits for the next one");
        var second = Scheduler.Spawn(ServeOne(), "second server");
        Join(caller);
        Join(second);

        IEnumerable<Event> ServeOne()
        {
            var request = requests.Recv();
            yield return request;
            request.Value.Reply.Reply(request.Value.Value * 2);
        }

        IEnumerable<Event> AskOnce(long n)
        {
            var ask = requests.Ask((ReplyTo<long> r) => new Doubling(n, r), Timeout);
            yield return ask;
            Assert.Equal(2 * n, ask.Value);
        }
    }

    [Fact]
    public async Task AskAsync_ToAMailboxWithNoServer_TimesOutOnTheSystemClock_EvenOnceItsSchedulerIsDisposed()
    {
        // Nobody has received from it: nothing to watch and no scheduler to time it.
        var unserved = new Mailbox<Doubling>("unserved");
        // (The ask's own TimeoutException names the mailbox; the test's WaitAsync would not.)
        var timeout = await Assert.ThrowsAsync<TimeoutException>(() => unserved.AskAsync((ReplyTo<long> r) => new Doubling(1, r), TimeSpan.FromMilliseconds(10)).WaitAsync(Timeout));
        Assert.Contains("'unserved'", timeout.Message, StringComparison.Ordinal);

        // Between two receivers of a mailbox that outlives them, on a scheduler that is then disposed.
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var handedOver = new Mailbox<Doubling>("handed over") { OutlivesReceiver = true };
        var first = scheduler.Spawn(TakeOne(handedOver), "first server");
        handedOver.Send(new Doubling(1, null!));
        Assert.True(first.Wait(Timeout), "the first server ends");
        var ask = handedOver.AskAsync((ReplyTo<long> r) => new Doubling(2, r), TimeSpan.FromMilliseconds(10));
        await scheduler.DisposeAsync().AsTask().WaitAsync(Timeout);
        timeout = await Assert.ThrowsAsync<TimeoutException>(() => ask.WaitAsync(Timeout));
        Assert.Contains("'handed over'", timeout.Message, StringComparison.Ordinal);

        static IEnumerable<Event> TakeOne(Mailbox<Doubling> requests)
        {
            yield return requests.Recv();
        }
    }

    /// <summary>Takes requests and holds them, unanswered, for the test to answer from its own thread.</summary>
    private static IEnumerable<Event> HoldRequests(Mailbox<Doubling> requests, ConcurrentQueue<Doubling> held)
    {
        var next = requests.Recv();
        while (true)
        {
            yield return next;
            held.Enqueue(next.Value);
        }
    }

    /// <summary>Serves doubling requests until stopped.</summary>
    private static IEnumerable<Event> DoubleForever(Mailbox<Doubling> requests)
    {
        var next = requests.Recv();
        while (true)
        {
            yield return next;
            next.Value.Reply.Reply(next.Value.Value * 2);
        }
    }

    /// <summary>A request for twice <see cref="Value"/>.</summary>
    public sealed record Doubling(long Value, ReplyTo<long> Reply);
}
