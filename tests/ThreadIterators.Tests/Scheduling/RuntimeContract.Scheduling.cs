using System.Collections.Generic;
using System.Linq;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void WaitForAll_ThreadsSpawningThreads_ReturnsWhenTheLastEnds()
    {
        var leaves = 0;
        Scheduler.Spawn(Tree(depth: 4));
        WaitForAll();
        Assert.Equal(10_000, leaves);

        IEnumerable<Event> Tree(int depth)
        {
            if (depth == 0)
            {
                System.Threading.Interlocked.Increment(ref leaves);
                yield break;
            }

            var children = Enumerable.Range(0, 10).Select(_ => Scheduler.Spawn(Tree(depth - 1))).ToList();
            foreach (var child in children)
            {
                yield return child.Exited;
            }
        }
    }

    [Fact]
    public void Send_OneTurnWakesMoreReceiversThanALongTurnsSends_EveryReceiverGetsItsMessage()
    {
        // Past Worker.LongTurnSends sends in one turn, a woken receiver goes to the stealable queue instead of the
        // run-next slot. The mailbox tests reach that only now and then at their small sizes; this turn always does.
        const int receivers = 2 * Worker.LongTurnSends;
        var inboxes = Enumerable.Range(0, receivers).Select(_ => new Mailbox<int>()).ToArray();
        var sum = 0L;
        foreach (var inbox in inboxes)
        {
            Scheduler.Spawn(AddOne(inbox));
        }

        WaitUntil(() => inboxes.All(m => m.IsReceiverParked), "every receiver parks");
        Run(WakeAll(), "waker");
        WaitForAll();
        Assert.Equal((long)receivers * (receivers + 1) / 2, System.Threading.Interlocked.Read(ref sum));

        IEnumerable<Event> WakeAll()
        {
            for (var i = 0; i < receivers; i++)
            {
                inboxes[i].Send(i + 1);
            }

            yield break;
        }

        IEnumerable<Event> AddOne(Mailbox<int> inbox)
        {
            var message = inbox.Recv();
            yield return message;
            System.Threading.Interlocked.Add(ref sum, message.Value);
        }
    }

    [Fact]
    public void SameProgram_RunTwice_OneWorkerProducesTheSameInterleaving()
    {
        var first = TracePingPongs();
        var second = TracePingPongs();
        Assert.Equal(400, first.Count);
        if (WorkerCount == 1)
        {
            Assert.Equal(first, second);
        }
    }

    /// <summary>Four pairs of threads ping-pong 50 times each, all logging to one trace.</summary>
    private List<string> TracePingPongs()
    {
        var trace = new List<string>();
        Run(Root());
        return trace;

        IEnumerable<Event> Root()
        {
            var pairs = new List<GreenThread>();
            for (var p = 0; p < 4; p++)
            {
                var left = new Mailbox<int>();
                var right = new Mailbox<int>();
                pairs.Add(Scheduler.Spawn(Player($"{p}L", left, right, serve: true)));
                pairs.Add(Scheduler.Spawn(Player($"{p}R", right, left, serve: false)));
            }

            foreach (var pair in pairs)
            {
                yield return pair.Exited;
            }
        }

        IEnumerable<Event> Player(string name, Mailbox<int> inbox, Mailbox<int> outbox, bool serve)
        {
            if (serve)
            {
                outbox.Send(0);
            }

            for (var i = 0; i < 50; i++)
            {
                var ball = inbox.Recv();
                yield return ball;
                lock (trace)
                {
                    trace.Add($"{name}:{ball.Value}");
                }

                if (i < 49 || !serve)
                {
                    outbox.Send(ball.Value + 1);
                }
            }
        }
    }
}
