using System;
using System.Collections.Generic;
using ThreadIterators;
using ThreadIterators.Testing;

namespace ThreadIterators.Tests;

/// <summary>
/// Sub-bodies under exploration: a receiver whose every receive is two calls deep, stopped while messages arrive.
/// Every message is taken (counted by the innermost body and returned up the stack) or still queued, and every body's
/// finally block runs exactly once, the innermost first.
/// </summary>
public sealed class ExploredCallTests
{
    private const int Runs = 300;

    public static TheoryData<ExplorationStrategy> Strategies => new() { ExplorationStrategy.Random, ExplorationStrategy.Pct };

    [Theory]
    [MemberData(nameof(Strategies))]
    public void Call_AReceiverTwoCallsDeep_StoppedWhileMessagesArrive_LosesNothing_AndEndsEveryBodyOnce(ExplorationStrategy strategy)
    {
        var result = Exploration.Explore(StopThroughCalls, new ExplorationOptions { Strategy = strategy, Iterations = Runs });
        Assert.False(result.Failed, result.ToString());
        Assert.Equal(Runs, result.Iterations);
    }

    private static IEnumerable<Event> StopThroughCalls(Scheduler scheduler)
    {
        var inbox = new Mailbox<int>("outliving") { OutlivesReceiver = true };
        var taken = 0;
        var returned = 0;
        var order = new List<string>();
        var middles = 0;
        yield return Event.Call(ExploredContractTests.StopWhileMessagesArrive(scheduler, inbox, Receive(), () => taken));

        // A value taken but not yet returned up the stack when the stop came is the one the stop cut short.
        if (returned != taken && returned != taken - 1)
        {
            throw new InvalidOperationException($"{taken} taken, {returned} returned to the outermost body");
        }

        // Each call of Middle ended once (by its return, or by the stop, before the outermost body), and the outermost
        // last; unless the stop came before the receiver's first turn, when no body started.
        var started = order.Count != 0 || middles != 0;
        if (started && (order.Count != middles + 1 || order[^1] != "outer" || order.FindAll(o => o == "middle").Count != middles))
        {
            throw new InvalidOperationException($"{middles} calls of Middle; bodies ended in the order {string.Join(",", order)}");
        }

        IEnumerable<Event> Receive()
        {
            try
            {
                while (true)
                {
                    var next = Event.Call<int>(Middle());
                    yield return next;
                    returned++;
                    _ = next.Result;
                }
            }
            finally
            {
                order.Add("outer");
            }
        }

        IEnumerable<Event> Middle()
        {
            middles++;
            try
            {
                var one = Event.Call<int>(Take());
                yield return one;
                yield return Event.Return(one.Result);
            }
            finally
            {
                order.Add("middle");
            }
        }

        IEnumerable<Event> Take()
        {
            var message = inbox.Recv();
            yield return message;
            taken++;
            yield return Event.Return(message.Value);
        }
    }
}
