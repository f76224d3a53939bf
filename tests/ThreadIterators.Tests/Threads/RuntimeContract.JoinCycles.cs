using System;
using System.Collections.Generic;
using System.Linq;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(2, false)]
    [InlineData(3, false)]
    [InlineData(3, true)]
    public void Join_ACycleOfJoins_FailsEveryThreadInIt_NamingTheCycle(int length, bool ended)
    {
        // Each thread learns whom to join from its mailbox, then joins it; the last one sent closes the cycle.
        var next = Enumerable.Range(0, length).Select(i => new Mailbox<GreenThread>($"next of {i}")).ToArray();
        var threads = Enumerable.Range(0, length).Select(i => Scheduler.Spawn(JoinNext(next[i]), $"joiner {i}")).ToArray();
        for (var i = 0; i < length; i++)
        {
            next[i].Send(threads[(i + 1) % length]);
        }

        WaitUntil(() => threads.All(thread => thread.IsCompleted), "every thread of the cycle has ended");

        var errors = new List<InvalidOperationException>();
        foreach (var thread in threads)
        {
            Assert.Equal(ThreadOutcome.Faulted, thread.Outcome);
            errors.Add(Assert.IsType<InvalidOperationException>(thread.Exception));
        }

        // The thread that closed the cycle found it (two closing it at once may both find it); the others got its
        // exception through their joins (or, joined with Ended, which does not rethrow, went on and ended with it).
        var found = errors.Distinct().ToList();
        Assert.InRange(found.Count, 1, length);
        foreach (var message in found.Select(error => error.Message))
        {
            Assert.StartsWith("A cycle of joins: ", message, StringComparison.Ordinal);
            foreach (var thread in threads)
            {
                Assert.Contains($"{thread}", message, StringComparison.Ordinal);
            }
        }

        IEnumerable<Event> JoinNext(Mailbox<GreenThread> inbox)
        {
            var received = inbox.Recv();
            yield return received;
            if (ended)
            {
                var end = received.Value.Ended;
                yield return end;
                if (received.Value.Exception is { } exception)
                {
                    throw exception;
                }
            }
            else
            {
                yield return received.Value.Exited;
            }
        }
    }
}
