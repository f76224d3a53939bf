using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// The seam between a mailbox's bind and the asks waiting for its next receiver (<see cref="ReceiverBinds"/>): the
/// listener is published exactly while an ask waits, so a bind pays one read and nothing more otherwise; and an ask
/// racing the first bind of its mailbox always ends up watching the receiver, whichever of the two saw the other.
/// Run alone: the listener is process-wide.
/// </summary>
[Collection(MeasurementsRunAlone.Name)]
public sealed class ReceiverBindsTests
{
    private static readonly TimeSpan Timeout = Waiting.Timeout;

    private sealed record Doubling(long Value, ReplyTo<long> Reply);

    [Fact]
    public async Task Listener_IsPublishedWhileAnAskWaitsForAReceiver_AndWithdrawnOnceTheBindServedIt()
    {
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = 1 });

        // Asks of other tests may have left lists whose mailboxes never got a receiver: compare with the state before.
        var before = ReceiverBinds.Listener;
        var requests = new Mailbox<Doubling>("first served late");
        var ask = requests.AskAsync((ReplyTo<long> reply) => new Doubling(21, reply), Timeout);
        Assert.NotNull(ReceiverBinds.Listener);

        var server = scheduler.Spawn(ServeOne(requests), "server");
        Assert.Equal(42, await ask.WaitAsync(Timeout));
        Assert.True(server.Wait(Timeout), "the server never ended");
        Assert.Same(before, ReceiverBinds.Listener);

        static IEnumerable<Event> ServeOne(Mailbox<Doubling> requests)
        {
            var request = requests.Recv();
            yield return request;
            request.Value.Reply.Reply(request.Value.Value * 2);
        }
    }

    [Fact]
    public async Task Ask_RacingTheFirstBind_WatchesTheReceiver_SoItsEndFailsTheAsk()
    {
        // The receiver binds and ends without answering, while an ask is sent from this thread: whether the ask saw
        // the receiver, or the bind saw the ask, the ask must fail with the receiver's end, never wait for its timeout.
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = 2 });
        const int Rounds = 2_000;
        var outcomes = new Task<long>[Rounds];
        var servers = new GreenThread[Rounds];
        for (var i = 0; i < Rounds; i++)
        {
            var requests = new Mailbox<Doubling>($"raced {i}");
            servers[i] = scheduler.Spawn(BindThenEnd(requests), $"binds {i}");
            outcomes[i] = requests.AskAsync((ReplyTo<long> reply) => new Doubling(1, reply), Timeout);
        }

        for (var i = 0; i < Rounds; i++)
        {
            var failure = await Assert.ThrowsAsync<ServerEndedException>(() => outcomes[i].WaitAsync(Timeout + Timeout));
            Assert.Same(servers[i], failure.Server);
        }

        Assert.All(servers, server => Assert.True(server.Wait(Timeout)));

        static IEnumerable<Event> BindThenEnd(Mailbox<Doubling> requests)
        {
            // Binds; the request, if already there, is dropped unanswered.
            requests.TryRecv(out _);
            yield break;
        }
    }
}
