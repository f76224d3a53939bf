using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>A thread that floods a mailbox without yielding must not keep the receiver it woke from running elsewhere.</summary>
public sealed class LongTurnTests
{
    private static readonly TimeSpan Timeout = Waiting.Timeout;

    [Theory]
    [InlineData(2)]
    [InlineData(4)]
    public void Send_FloodInOneTurn_ReceiverRunsOnAnotherWorkerBeforeTheFloodEnds(int workers)
    {
        // Far more sends than the few microseconds an idle worker needs to wake and steal the receiver; a receiver
        // stuck in the sender's run-next slot would see none of them until the sender's turn ended.
        const long cap = 20_000_000;
        const long stop = -1;
        using var scheduler = new Scheduler(workers);
        var inbox = new Mailbox<long>("flooded");
        long received = 0;
        long sentBeforeFirstReceipt = -1;
        var receiver = scheduler.Spawn(Receive(), "receiver");
        var sender = scheduler.Spawn(Flood(), "sender");
        Assert.True(sender.Wait(Timeout), "the sender did not finish");
        Assert.True(receiver.Wait(Timeout), "the receiver did not finish");
        Assert.True(sentBeforeFirstReceipt < cap, $"the receiver got nothing while {cap} messages were sent in one turn");
        Assert.Equal(sentBeforeFirstReceipt, Volatile.Read(ref received));

        IEnumerable<Event> Flood()
        {
            long sent = 0;
            while (Volatile.Read(ref received) == 0 && sent < cap)
            {
                inbox.Send(sent++);
            }

            sentBeforeFirstReceipt = sent;
            inbox.Send(stop);
            yield break;
        }

        IEnumerable<Event> Receive()
        {
            var message = inbox.Recv();
            var expected = 0L;
            while (true)
            {
                yield return message;
                if (message.Value == stop)
                {
                    yield break;
                }

                Assert.Equal(expected++, message.Value);
                Interlocked.Increment(ref received);
            }
        }
    }
}
