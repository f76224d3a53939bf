using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Asks of a server bound to its mailbox at its spawn (<see cref="Scheduler.SpawnReceiver{T}"/>), under every
/// configuration: a server that ends before its first receive, however it ends, fails every ask queued or sent later
/// with a <see cref="ServerEndedException"/>, and its requests are dead letters (a bounded mailbox refuses the later
/// ones); every ask racing the end gets a reply or the server's end, never both, never neither.
/// </summary>
public abstract partial class RuntimeContract
{
    /// <summary>How a bound server ends without ever receiving.</summary>
    public enum UnservedEnd
    {
        Completes,
        Faults,
        IsStoppedBeforeItRuns,
        IsStoppedParkedElsewhere,
        HadEndedBeforeTheAsks,
    }

    public static TheoryData<UnservedEnd, bool> UnservedEnds()
    {
        var data = new TheoryData<UnservedEnd, bool>();
        foreach (var end in Enum.GetValues<UnservedEnd>())
        {
            data.Add(end, false);
            data.Add(end, true);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(UnservedEnds))]
    public async Task Ask_ServerBoundAtSpawn_EndingBeforeItsFirstReceive_FailsEveryAskWithItsEnd_AndTheRequestsAreDeadLetters(UnservedEnd end, bool bounded)
    {
        // No timeout: only the server's end can complete these asks. The server never receives from its mailbox.
        var requests = bounded ? new Mailbox<Doubling>(8, "unserved") : new Mailbox<Doubling>("unserved");
        var release = new Mailbox<int>("release");
        var letters = new ConcurrentQueue<DeadLetterEventArgs>();
        Scheduler.DeadLetter += (_, e) => letters.Enqueue(e);
        var started = 0;
        Exception? green = null;
        GreenThread? server = null;
        var spawner = Scheduler.Spawn(SpawnThenAsk(), "spawner");
        WaitUntil(() => Volatile.Read(ref server) is not null, "the server is spawned");
        Assert.Same(server, requests.Receiver);
        Task<long>? before = null;
        if (end is not (UnservedEnd.HadEndedBeforeTheAsks or UnservedEnd.IsStoppedBeforeItRuns))
        {
            // The server waits elsewhere until the test ends it: both requests stay queued till then.
            WaitUntil(() => requests.Count == 1, "the green ask's request is queued");
            before = requests.AskAsync((ReplyTo<long> reply) => new Doubling(2, reply), System.Threading.Timeout.InfiniteTimeSpan);
            Assert.Equal(2, requests.Count);
            Assert.False(before.IsCompleted, "the server has not ended");
        }

        switch (end)
        {
            case UnservedEnd.Completes:
            case UnservedEnd.Faults:
                release.Send(0);
                break;
            case UnservedEnd.IsStoppedParkedElsewhere:
                WaitUntil(() => release.IsReceiverParked, "the server waits for something else");
                Assert.True(server!.Stop("enough"));
                break;
        }

        Join(spawner);
        WaitUntil(() => server!.IsCompleted, "the server ends");
        var after = requests.AskAsync((ReplyTo<long> reply) => new Doubling(3, reply), System.Threading.Timeout.InfiniteTimeSpan);
        Assert.True(after.IsCompleted, "an ask of a server that has ended fails at once");
        var failures = new List<ServerEndedException> { Assert.IsType<ServerEndedException>(green) };
        foreach (var task in before is null ? [after] : new[] { before, after })
        {
            failures.Add(await Assert.ThrowsAsync<ServerEndedException>(() => task.WaitAsync(Timeout)));
        }

        var expected = end switch
        {
            UnservedEnd.Completes or UnservedEnd.HadEndedBeforeTheAsks => ThreadOutcome.Completed,
            UnservedEnd.Faults => ThreadOutcome.Faulted,
            _ => ThreadOutcome.Canceled,
        };
        foreach (var failure in failures)
        {
            Assert.Same(server, failure.Server);
            Assert.Equal(expected, failure.Outcome);
            Assert.Contains("'unserved'", failure.Message, StringComparison.Ordinal);
            Assert.Contains("'bound server'", failure.Message, StringComparison.Ordinal);
        }

        if (end == UnservedEnd.IsStoppedBeforeItRuns && WorkerCount == 1)
        {
            // The only worker ran the spawner until it parked on its ask: the server was still queued when stopped.
            Assert.Equal(0, Volatile.Read(ref started));
        }

        // Every request is counted: those queued at the end, and those sent after it, are dead letters of the
        // server; a bounded mailbox, completed by the end, refused the later ones instead. A server stopped before it
        // ran may end before or after the green ask is sent, unless one worker runs both (then after).
        var asks = failures.Count;
        int? queued = end switch
        {
            UnservedEnd.HadEndedBeforeTheAsks => 0,
            UnservedEnd.IsStoppedBeforeItRuns => WorkerCount == 1 ? 1 : null,
            _ => 2,
        };
        Assert.All(letters, letter =>
        {
            Assert.Same(requests, letter.Mailbox);
            Assert.Same(server, letter.Receiver);
            Assert.IsType<Doubling>(letter.Message);
        });
        var queuedLetters = letters.Count(l => l.Reason == DeadLetterReason.QueuedWhenReceiverEnded);
        var sentAfterLetters = letters.Count(l => l.Reason == DeadLetterReason.SentAfterReceiverEnded);
        Assert.Equal(letters.Count, queuedLetters + sentAfterLetters);
        if (queued is { } known)
        {
            Assert.Equal(known, queuedLetters);
        }

        if (bounded)
        {
            Assert.Equal(0, sentAfterLetters);
        }
        else
        {
            Assert.Equal(asks, letters.Count);
        }
        if (bounded)
        {
            var refused = Assert.Throws<ChannelClosedException>(() => requests.Send(new Doubling(4, null!)));
            Assert.Contains("'bound server'", refused.Message, StringComparison.Ordinal);
        }

        if (end == UnservedEnd.Faults)
        {
            // The asks' watches do not observe the server's fault.
            ExpectUnobservedFaults = true;
        }

        IEnumerable<Event> SpawnThenAsk()
        {
            var bound = GreenThread.Current!.Scheduler.SpawnReceiver(requests, Serve(), "bound server");
            Volatile.Write(ref server, bound);
            if (end == UnservedEnd.IsStoppedBeforeItRuns)
            {
                Assert.True(bound.Stop("before it ran"));
            }
            else if (end == UnservedEnd.HadEndedBeforeTheAsks)
            {
                release.Send(0);
                yield return bound.Ended;
            }

            var ask = requests.Ask((ReplyTo<long> reply) => new Doubling(1, reply), System.Threading.Timeout.InfiniteTimeSpan);
            yield return ask;
            green = ask.Exception;
            Assert.False(ask.TimedOut);
        }

        IEnumerable<Event> Serve()
        {
            // Busy elsewhere, never receiving from the requests' mailbox.
            Volatile.Write(ref started, 1);
            yield return release.Recv();
            if (end == UnservedEnd.Faults)
            {
                throw new InvalidOperationException("the server breaks");
            }
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Ask_ManyGreenAndAsyncCallersRacingTheEndOfABoundServer_EachGetsAReplyOrItsEnd_NeverBoth_NoRequestLost(bool bounded)
    {
        // Each round a server bound at its spawn serves doubling requests from green callers and OS threads, until the
        // test stops it: in even rounds while it still waits to begin (before its first receive), in odd rounds after
        // it has served a few. Every ask ends with its reply or the server's end; every request was served or is a
        // dead letter (or, bounded, was refused after the end).
        const int Rounds = 20;
        const int GreenCallers = 3;
        const int OsCallers = 2;
        const int AsksEach = 20;
        const int Asks = (GreenCallers + OsCallers) * AsksEach;
        for (var round = 0; round < Rounds; round++)
        {
            var requests = bounded ? new Mailbox<Doubling>(Asks, $"server {round}") : new Mailbox<Doubling>($"server {round}");
            var go = new Mailbox<int>($"go {round}");
            var served = 0;
            var replies = 0;
            var ends = 0;
            var letters = 0;
            var strayLetters = 0;
            EventHandler<DeadLetterEventArgs> count = (_, e) =>
            {
                // A handler's exception is not the sender's, so a stray letter is counted rather than asserted.
                if (e.Mailbox == requests && e.Message is Doubling && e.Reason != DeadLetterReason.LateReply)
                {
                    Interlocked.Increment(ref letters);
                }
                else
                {
                    Interlocked.Increment(ref strayLetters);
                }
            };
            Scheduler.DeadLetter += count;
            var server = Scheduler.SpawnReceiver(requests, Serve(), $"server {round}");
            var callers = Enumerable.Range(0, GreenCallers).Select(c => Scheduler.Spawn(AskMany(c), $"caller {c}")).ToArray();
            var outside = Enumerable.Range(0, OsCallers).Select(c => Task.Run(() => AskManyAsync(GreenCallers + c))).ToArray();
            if (round % 2 == 1)
            {
                go.Send(0);
                WaitUntil(() => Volatile.Read(ref served) >= round, $"round {round}: the server has served {round} requests");
            }

            server.Stop("racing the asks");
            Array.ForEach(callers, Join);
            await Task.WhenAll(outside).WaitAsync(Timeout);
            WaitUntil(() => server.IsCompleted, $"round {round}: the server ends");
            Scheduler.DeadLetter -= count;

            Assert.Equal(0, strayLetters);
            Assert.Equal(Asks, replies + ends);
            Assert.Equal(served, replies);
            if (round % 2 == 0)
            {
                Assert.Equal(0, served);
            }

            if (bounded)
            {
                Assert.True(letters <= ends, $"round {round}: {letters} dead letters, but only {ends} asks saw the server's end");
            }
            else
            {
                Assert.Equal(ends, letters);
            }

            IEnumerable<Event> Serve()
            {
                yield return go.Recv();
                var next = requests.Recv();
                while (true)
                {
                    yield return next;
                    Interlocked.Increment(ref served);
                    Assert.True(next.Value.Reply.Reply(next.Value.Value * 2), "a served request's caller waits for it");
                }
            }

            void Outcome(long n, Func<long> value, Exception? error)
            {
                if (error is null)
                {
                    Assert.Equal(2 * n, value());
                    Interlocked.Increment(ref replies);
                }
                else
                {
                    Assert.Same(server, Assert.IsType<ServerEndedException>(error).Server);
                    Interlocked.Increment(ref ends);
                }
            }

            IEnumerable<Event> AskMany(int caller)
            {
                for (var i = 0; i < AsksEach; i++)
                {
                    long n = (caller * AsksEach) + i;
                    var ask = requests.Ask((ReplyTo<long> reply) => new Doubling(n, reply), System.Threading.Timeout.InfiniteTimeSpan);
                    yield return ask;
                    Outcome(n, () => ask.Value, ask.Exception);
                }
            }

            async Task AskManyAsync(int caller)
            {
                for (var i = 0; i < AsksEach; i++)
                {
                    long n = (caller * AsksEach) + i;
                    var ask = requests.AskAsync((ReplyTo<long> reply) => new Doubling(n, reply), System.Threading.Timeout.InfiniteTimeSpan);
                    try
                    {
                        var value = await ask.WaitAsync(Timeout).ConfigureAwait(false);
                        Outcome(n, () => value, null);
                    }
                    catch (ServerEndedException ended)
                    {
                        Outcome(n, () => 0, ended);
                    }
                }
            }
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Ask_OfAMailboxCompletedByASender_IsRefusedWithChannelClosed_NamingTheCallerAndTheMailbox(bool bounded)
    {
        // Not the server's end: the server is alive, and the ask is refused at once, as a send would be.
        var requests = bounded ? new Mailbox<Doubling>(4, "closed") : new Mailbox<Doubling>("closed");
        var server = Scheduler.SpawnReceiver(requests, UntilTheEnd(), "server");
        requests.Complete();
        string? refusal = null;
        Run(AskOnce(), "asker");
        Assert.Contains("'closed'", refusal, StringComparison.Ordinal);
        Assert.Contains("'asker'", refusal, StringComparison.Ordinal);
        Assert.Contains("completed", refusal, StringComparison.Ordinal);
        WaitUntil(() => server.IsCompleted, "the server takes the end");
        Assert.Equal(0, Scheduler.DeadLetterCount);

        IEnumerable<Event> UntilTheEnd()
        {
            var next = requests.Recv();
            do
            {
                yield return next;
            }
            while (!next.IsCompleted);
        }

        IEnumerable<Event> AskOnce()
        {
            refusal = Assert.Throws<ChannelClosedException>(() => requests.Ask((ReplyTo<long> reply) => new Doubling(1, reply), Timeout)).Message;
            yield break;
        }
    }

    [Fact]
    public void SpawnReceiver_ToAMailboxThatIsTaken_IsRefusedNamingBoth_AndStartsNothing()
    {
        var taken = new Mailbox<int>("taken");
        var first = Scheduler.SpawnReceiver(taken, WaitForever(taken), "first");
        var live = Scheduler.LiveThreadCount;
        var refused = Assert.Throws<InvalidOperationException>(() => Scheduler.SpawnReceiver(taken, WaitForever(taken), "second"));
        Assert.Contains("'taken'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("'first'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("'second'", refused.Message, StringComparison.Ordinal);
        Assert.Equal(live, Scheduler.LiveThreadCount);
        Assert.Same(first, taken.Receiver);

        // Once the first has ended, a mailbox that does not outlive it takes no other receiver; one that does, does.
        first.Stop();
        WaitUntil(() => first.IsCompleted, "the first receiver ends");
        var ended = Assert.Throws<InvalidOperationException>(() => Scheduler.SpawnReceiver(taken, WaitForever(taken), "late"));
        Assert.Contains("'late'", ended.Message, StringComparison.Ordinal);
        Assert.Contains("'first'", ended.Message, StringComparison.Ordinal);
        var handedOver = new Mailbox<int>("handed over") { OutlivesReceiver = true };
        var before = Scheduler.SpawnReceiver(handedOver, WaitForever(handedOver), "before");
        before.Stop();
        WaitUntil(() => before.IsCompleted, "the receiver before ends");
        var next = Scheduler.SpawnReceiver(handedOver, WaitForever(handedOver), "next");
        Assert.Same(next, handedOver.Receiver);
        next.Stop();

        // Async code owns a mailbox it reads; null is refused.
        var read = new Mailbox<int>("read by async code");
        _ = read.AsChannelReader();
        Assert.Throws<InvalidOperationException>(() => Scheduler.SpawnReceiver(read, WaitForever(read), "green"));
        Assert.Throws<ArgumentNullException>(() => Scheduler.SpawnReceiver<int>(null!, WaitForever(read)));
        Assert.Throws<ArgumentNullException>(() => Scheduler.SpawnReceiver(read, null!));
        Assert.Null(read.Receiver);

        static IEnumerable<Event> WaitForever(Mailbox<int> inbox)
        {
            var next = inbox.Recv();
            while (true)
            {
                yield return next;
            }
        }
    }
}
