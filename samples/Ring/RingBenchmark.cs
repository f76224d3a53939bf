using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using ThreadIterators;

namespace ThreadIterators.Samples.Ring;

/// <summary>
/// The ring of the original C# iterator library against Erlang: N forwarders in a line, a pump that sends M
/// messages (0..M-1) and a stop marker (-1), and a drain that counts until the marker. N·M hops, pipelined.
/// </summary>
public static class RingBenchmark
{
    /// <summary>The stop marker.</summary>
    private const int Stop = -1;

    /// <summary>Spawns the ring and waits, inside a green thread, for the drain to finish.</summary>
    /// <param name="scheduler">Where the threads run.</param>
    /// <param name="n">Forwarders.</param>
    /// <param name="m">Messages.</param>
    /// <param name="result">Receives the drain's count of messages, or -1 if they arrived out of order.</param>
    /// <param name="allocatedAtPump">If given, receives the process's allocated bytes once the forwarders are spawned, just before the pump starts.</param>
    public static IEnumerable<Event> Run(Scheduler scheduler, int n, int m, StrongBox<long> result, StrongBox<long>? allocatedAtPump = null)
    {
        var inbox = new Mailbox<int>();
        var outbox = SpawnForwarders(scheduler, n, inbox);
        if (allocatedAtPump is not null)
        {
            allocatedAtPump.Value = GC.GetTotalAllocatedBytes(precise: true);
        }

        scheduler.Spawn(Pump(m, inbox));
        var drain = scheduler.Spawn(Drain(outbox, result));
        yield return drain.Exited;
    }

    private static IEnumerable<Event> Forward(Mailbox<int> inbox, Mailbox<int> outbox)
    {
        while (true)
        {
            var message = inbox.Recv();
            yield return message;
            outbox.Send(message.Value);
            if (message.Value == Stop)
            {
                yield break;
            }
        }
    }

    private static Mailbox<int> SpawnForwarders(Scheduler scheduler, int n, Mailbox<int> inbox)
    {
        var previous = inbox;
        for (var i = 0; i < n; i++)
        {
            var next = new Mailbox<int>();
            scheduler.Spawn(Forward(previous, next));
            previous = next;
        }

        return previous;
    }

    private static IEnumerable<Event> Pump(int m, Mailbox<int> outbox)
    {
        for (var i = 0; i < m; i++)
        {
            outbox.Send(i);
        }

        outbox.Send(Stop);
        yield break;
    }

    private static IEnumerable<Event> Drain(Mailbox<int> inbox, StrongBox<long> result)
    {
        long count = 0;
        while (true)
        {
            var message = inbox.Recv();
            yield return message;
            if (message.Value == Stop)
            {
                break;
            }

            // Messages from the one pump must arrive in order.
            count = message.Value == count ? count + 1 : long.MinValue;
        }

        result.Value = count < 0 ? -1 : count;
    }
}
