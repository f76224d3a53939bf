using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Stops that race the thread's wakers, many times over, under every configuration: whoever wins, the thread ends
/// canceled, and every message, credit and room is accounted for. Bodies only: RuntimeContract.Stop.cs runs them at
/// a small size, the stress tier at a large one.
/// </summary>
public abstract partial class RuntimeContract
{
    /// <summary>The reason the stop tests give; the stopped threads' exceptions carry it.</summary>
    private const string StopReason = "stopped by the test";

    private void StopRacingASender(int rounds)
    {
        const int Messages = 32;
        for (var round = 0; round < rounds; round++)
        {
            var inbox = new Mailbox<int>($"inbox {round}") { OutlivesReceiver = true };
            var other = new Mailbox<int>($"other {round}") { OutlivesReceiver = true };
            var received = new List<int>();

            // Half the rounds alternate a plain receive with a choice over the same mailbox, so a stop may read the
            // plain receive as the thread's wait while the thread parks in the choice.
            var victim = Scheduler.Spawn(round % 2 == 0 ? Plain() : Alternating(), $"victim {round}");
            var sent = 0;
            var sender = new Thread(() =>
            {
                for (var m = 0; m < Messages; m++)
                {
                    inbox.Send(m);
                    Volatile.Write(ref sent, m + 1);
                }
            });
            sender.Start();
            var stopAt = round % (Messages + 1);
            WaitUntil(() => Volatile.Read(ref sent) >= stopAt, $"{stopAt} messages are sent");
            Assert.True(victim.Stop(StopReason));
            Assert.True(sender.Join(Timeout));
            Assert.Throws<GreenThreadStoppedException>(() => victim.Wait(Timeout));

            // Received in order, then the rest still there, in order: none lost, none taken twice.
            var left = new List<int>();
            Run(Drain(inbox, Messages - received.Count, left), "drain");
            Assert.Equal(Enumerable.Range(0, Messages), received.Concat(left));
            Assert.Equal(0, other.Count);

            IEnumerable<Event> Plain()
            {
                var receive = inbox.Recv();
                while (true)
                {
                    yield return receive;
                    received.Add(receive.Value);
                }
            }

            IEnumerable<Event> Alternating()
            {
                var receive = inbox.Recv();
                var choice = new Choice(receive, other.Recv());
                while (true)
                {
                    yield return receive;
                    received.Add(receive.Value);
                    yield return choice;
                    Assert.Equal(0, choice.Index);
                    received.Add(receive.Value);
                }
            }
        }

        static IEnumerable<Event> Drain(Mailbox<int> inbox, int count, List<int> into)
        {
            var receive = inbox.Recv();
            for (var i = 0; i < count; i++)
            {
                yield return receive;
                into.Add(receive.Value);
            }
        }
    }

    private void StopRacingSendsToASharedMailbox(int rounds)
    {
        const int Messages = 200;
        const int Last = -1;
        for (var round = 0; round < rounds; round++)
        {
            var shared = new SharedMailbox<int>($"shared {round}");
            var own = new Mailbox<int>($"own {round}") { OutlivesReceiver = true };
            var taken = new int[Messages];
            var ownTaken = 0;

            // The victim chooses between the shared mailbox and its own; the survivor receives from the shared one
            // only. A wake-up the victim was given when it was stopped must reach the survivor, or a message would
            // sit with the survivor parked.
            var victim = Scheduler.Spawn(Victim(), $"victim {round}");
            var survivor = Scheduler.Spawn(Survivor(), $"survivor {round}");
            var sent = 0;
            var sender = new Thread(() =>
            {
                for (var m = 0; m < Messages; m++)
                {
                    shared.Send(m);
                    if (m % 4 == 0)
                    {
                        own.Send(m);
                    }

                    Volatile.Write(ref sent, m + 1);
                }
            });
            sender.Start();
            var stopAt = round % 50 * Messages / 50;
            WaitUntil(() => Volatile.Read(ref sent) >= stopAt, $"{stopAt} messages are sent");
            Assert.True(victim.Stop(StopReason));
            Assert.True(sender.Join(Timeout));
            Assert.Throws<GreenThreadStoppedException>(() => victim.Wait(Timeout));

            WaitUntil(() => Enumerable.Range(0, Messages).Sum(m => Volatile.Read(ref taken[m])) == Messages, "every shared message is taken");
            shared.Send(Last);
            Join(survivor);
            Assert.All(taken, t => Assert.Equal(1, t));
            Assert.Equal(Enumerable.Range(0, Messages).Count(m => m % 4 == 0), Volatile.Read(ref ownTaken) + own.Count);

            IEnumerable<Event> Victim()
            {
                var receive = shared.CreateReceiveEvent();
                var choice = new Choice(receive, own.Recv());
                while (true)
                {
                    yield return choice;
                    if (choice.Index == 1)
                    {
                        Interlocked.Increment(ref ownTaken);
                    }
                    else
                    {
                        Interlocked.Increment(ref taken[receive.Value]);
                    }
                }
            }

            IEnumerable<Event> Survivor()
            {
                var receive = shared.CreateReceiveEvent();
                while (true)
                {
                    yield return receive;
                    if (receive.Value == Last)
                    {
                        yield break;
                    }

                    Interlocked.Increment(ref taken[receive.Value]);
                }
            }
        }
    }

    private void StopRacingACreditRelease(int rounds)
    {
        for (var round = 0; round < rounds; round++)
        {
            var window = new CreditWindow(1, $"credits {round}");
            Assert.True(window.TryAcquire());
            var never = new Mailbox<int>($"never {round}");
            var victim = Scheduler.Spawn(Acquirer(), $"victim {round}");
            if (round % 2 == 0)
            {
                WaitUntil(() => Probe.WaitingForCredit(window) == 1, "the victim waits for the credit");
            }

            var releaser = new Thread(() => window.Release());
            releaser.Start();
            Assert.True(victim.Stop(StopReason));
            Assert.True(releaser.Join(Timeout));
            Assert.Throws<GreenThreadStoppedException>(() => victim.Wait(Timeout));

            // The credit reached the victim, which released it as it ended, or went back to the window: one either way.
            Assert.Equal(1, window.Available);
            Assert.True(window.TryAcquire());
            Assert.False(window.TryAcquire());
            window.Release();
            Assert.Equal(1, window.Available);

            IEnumerable<Event> Acquirer()
            {
                var acquired = false;
                try
                {
                    yield return window.Acquire();
                    acquired = true;
                    yield return never.Recv();
                }
                finally
                {
                    if (acquired)
                    {
                        window.Release();
                    }
                }
            }
        }
    }

    private void StopRacingAReceiverMakingRoom(int rounds)
    {
        for (var round = 0; round < rounds; round++)
        {
            var bounded = new Mailbox<int>(2, $"bounded {round}");
            var received = new List<int>();
            var sent = 0;

            // Half the rounds put with Put, which sends at once when there is room (before the yield), half with a put
            // event, which sends only while yielded.
            var producer = Scheduler.Spawn(round % 2 == 0 ? Putter() : PutEventSender(), $"producer {round}");
            var consumer = Scheduler.Spawn(Consumer(), $"consumer {round}");
            var stopAt = round % 50 * 4;
            WaitUntil(() => Volatile.Read(ref sent) >= stopAt, $"{stopAt} puts are sent");
            Assert.True(producer.Stop(StopReason), $"{producer} had ended before the stop, in round {round}: {producer.Outcome}, {producer.Exception}");
            Assert.Throws<GreenThreadStoppedException>(() => producer.Wait(Timeout));

            // The consumer takes every message sent, in order, and nothing more arrives; then the room is all free.
            var total = Volatile.Read(ref sent);
            WaitUntil(() => Received() >= total && bounded.IsReceiverParked, "the consumer has taken every sent message");
            Assert.Equal(Enumerable.Range(0, total), received);
            Assert.True(bounded.TrySend(-1));
            Assert.True(bounded.TrySend(-2));
            WaitUntil(() => Received() == total + 2 && bounded.IsReceiverParked, "the consumer takes the last two");
            Assert.True(consumer.Stop(StopReason));
            Assert.Throws<GreenThreadStoppedException>(() => consumer.Wait(Timeout));
            Assert.Equal(0, bounded.Count);

            int Received()
            {
                lock (received)
                {
                    return received.Count;
                }
            }

            IEnumerable<Event> Putter()
            {
                for (var i = 0; ; i++)
                {
                    var put = bounded.Put(i);
                    if (put is not PutEvent<int>)
                    {
                        // There was room: sent already, whatever happens at the yield.
                        Volatile.Write(ref sent, i + 1);
                    }

                    yield return put;
                    Volatile.Write(ref sent, i + 1);
                }
            }

            IEnumerable<Event> PutEventSender()
            {
                var put = bounded.CreatePutEvent();
                for (var i = 0; ; i++)
                {
                    yield return put.For(i);
                    Volatile.Write(ref sent, i + 1);
                }
            }

            IEnumerable<Event> Consumer()
            {
                var receive = bounded.Recv();
                while (true)
                {
                    yield return receive;
                    lock (received)
                    {
                        received.Add(receive.Value);
                    }
                }
            }
        }
    }

    private void StopRacingTheTokensCancellation(int rounds)
    {
        for (var round = 0; round < rounds; round++)
        {
            using var cancellation = new CancellationTokenSource();
            var whenCanceled = Event.WhenCanceled(cancellation.Token);
            var never = new Mailbox<int>($"never {round}");
            var resumed = 0;
            var victim = Scheduler.Spawn(Waiter(), $"victim {round}");
            WaitUntil(() => Probe.IsWaiting(whenCanceled), "the victim waits on the token");
            var canceler = new Thread(() => cancellation.Cancel());
            canceler.Start();
            Assert.True(victim.Stop(StopReason));
            Assert.True(canceler.Join(Timeout));
            Assert.Throws<GreenThreadStoppedException>(() => victim.Wait(Timeout));
            Assert.InRange(Volatile.Read(ref resumed), 0, 1);

            IEnumerable<Event> Waiter()
            {
                yield return whenCanceled;

                // The cancellation won: the wake-up stands, and the stop ends the thread at its next wait.
                Volatile.Write(ref resumed, 1);
                yield return never.Recv();
                Volatile.Write(ref resumed, 2);
            }
        }
    }
}
