using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>Disposal at the exact points where a message could be taken and then dropped.</summary>
public sealed class DisposalTests
{
    private static readonly TimeSpan Timeout = Waiting.Timeout;

    [Fact]
    public void Dispose_ReceiverQueuedAfterItsStepBudget_NoMessageIsLostToTheNextReceiver()
    {
        const int total = 200;
        var inbox = new Mailbox<int>("budgeted") { OutlivesReceiver = true };
        for (var i = 0; i < total; i++)
        {
            inbox.Send(i);
        }

        var processed = new List<int>();
        using var blockerRuns = new ManualResetEventSlim();
        using var releaseBlocker = new ManualResetEventSlim();
        var scheduler = new Scheduler(1);
        try
        {
            // The receiver spawns a blocker early in its first turn; when the receiver's step budget runs out it is
            // queued behind the blocker, which then holds the worker while the scheduler is disposed. The receiver
            // is disposed from the queue, between two turns.
            scheduler.Spawn(Receive(scheduler), "receiver");
            Assert.True(blockerRuns.Wait(Timeout), "the blocker never ran");
            var disposal = new Thread(scheduler.Dispose) { IsBackground = true };
            disposal.Start();
            Waiting.Until(() => scheduler.IsStopping, "disposal begins");

            releaseBlocker.Set();
            Assert.True(disposal.Join(Timeout), "the scheduler was not disposed");
        }
        finally
        {
            releaseBlocker.Set();
        }

        Assert.InRange(processed.Count, 1, total - 1);

        // Another scheduler's thread takes the mailbox over and must get every message the first one did not handle.
        using var next = new Scheduler(1);
        var rest = new List<int>();
        var taker = next.Spawn(Take(total - processed.Count), "taker");
        Assert.True(taker.Wait(Timeout), "the taker did not get the remaining messages");
        Assert.Equal(Enumerable.Range(0, total), processed.Concat(rest));

        IEnumerable<Event> Receive(Scheduler owner)
        {
            var message = inbox.Recv();
            for (var i = 0; i < total; i++)
            {
                yield return message;
                processed.Add(message.Value);
                if (i == 10)
                {
                    owner.Spawn(Block(), "blocker");
                }
            }
        }

        IEnumerable<Event> Block()
        {
            blockerRuns.Set();

            // Holding the only worker is the point: the receiver must stay queued while disposal begins.
#pragma warning disable TI0001 // Blocking the only worker on purpose, as the comment above says.
            releaseBlocker.Wait(Timeout);
#pragma warning restore TI0001
            yield break;
        }

        IEnumerable<Event> Take(int count)
        {
            var message = inbox.Recv();
            for (var i = 0; i < count; i++)
            {
                yield return message;
                rest.Add(message.Value);
            }
        }
    }
}
