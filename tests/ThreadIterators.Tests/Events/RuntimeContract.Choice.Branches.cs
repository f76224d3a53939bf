using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void Choice_SharedMailbox_ReceiversInChoicesAndPlain_EveryMessageOnce_AndNoWakeUpLost()
    {
        const int Messages = 4_000;
        var shared = new SharedMailbox<int>("shared");
        var privates = Enumerable.Range(0, 2).Select(i => new Mailbox<int>($"private {i}") { OutlivesReceiver = true }).ToArray();
        var taken = new int[Messages];
        var privateTaken = 0;
        var stop = -1;

        // Two receivers choose between the shared mailbox and their own; a third receives from the shared one only.
        // A chooser woken for a shared message that then takes its private one must pass the wake-up on, or that
        // message would sit with a receiver parked.
        var choosers = Enumerable.Range(0, 2).Select(i => Scheduler.Spawn(Choose(i), $"chooser {i}")).ToArray();
        var plain = Scheduler.Spawn(Plain(), "plain receiver");
        var sender = new Thread(() =>
        {
            for (var m = 0; m < Messages; m++)
            {
                shared.Send(m);
                if (m % 3 == 0)
                {
                    privates[m % 2].Send(m);
                }
            }

            for (var r = 0; r < 3; r++)
            {
                shared.Send(stop);
            }
        });
        sender.Start();
        Assert.True(sender.Join(Timeout));
        foreach (var thread in choosers.Append(plain))
        {
            Join(thread);
        }

        Assert.All(taken, t => Assert.Equal(1, t));
        Assert.Equal(Enumerable.Range(0, Messages).Count(m => m % 3 == 0), Volatile.Read(ref privateTaken) + privates.Sum(p => p.Count));

        IEnumerable<Event> Choose(int i)
        {
            var receive = shared.CreateReceiveEvent();
            var choice = new Choice(receive, privates[i].Recv());
            while (true)
            {
                yield return choice;
                if (choice.Index == 1)
                {
                    Interlocked.Increment(ref privateTaken);
                    continue;
                }

                if (receive.Value == stop)
                {
                    yield break;
                }

                Interlocked.Increment(ref taken[receive.Value]);
            }
        }

        IEnumerable<Event> Plain()
        {
            var receive = shared.CreateReceiveEvent();
            while (true)
            {
                yield return receive;
                if (receive.Value == stop)
                {
                    yield break;
                }

                Interlocked.Increment(ref taken[receive.Value]);
            }
        }
    }

    [Fact]
    public void Choice_PutLosesWhileTheMailboxFreesRoom_SendsNothing_AndEveryChosenPutArrivesOnce()
    {
        const int Rounds = 2_000;
        var bounded = new Mailbox<int>(1, "bounded");
        var wakeUps = new Mailbox<int>("wake-ups");
        var putsChosen = 0;
        var received = new List<int>();
        var done = 0;

        var chooser = Scheduler.Spawn(Chooser(), "chooser");
        var receiver = Scheduler.Spawn(Receiver(), "bounded receiver");
        var poker = new Thread(() =>
        {
            // Races the receiver freeing room: a wake-up message for the chooser's other branch.
            for (var r = 0; r < Rounds; r++)
            {
                wakeUps.Send(r);
            }
        });
        poker.Start();
        Assert.True(poker.Join(Timeout));
        Join(chooser);
        Join(receiver);

        // Every put the choice reported as chosen arrived, once, in order; a put that lost sent nothing.
        Assert.Equal(Enumerable.Range(0, putsChosen), received);

        IEnumerable<Event> Chooser()
        {
            var put = bounded.CreatePutEvent();
            var wakeUp = wakeUps.Recv();
            var handled = 0;
            while (handled < Rounds)
            {
                var choice = new Choice(wakeUp, put.For(putsChosen));
                yield return choice;
                if (choice.Index == 1)
                {
                    Assert.True(put.IsSent);
                    putsChosen++;
                }
                else
                {
                    Assert.False(put.IsSent);
                    handled++;
                }
            }

            Volatile.Write(ref done, 1);
            yield return bounded.Put(-1);
        }

        IEnumerable<Event> Receiver()
        {
            var receive = bounded.Recv();
            while (true)
            {
                yield return receive;
                if (receive.Value == -1)
                {
                    yield break;
                }

                received.Add(receive.Value);
            }
        }
    }

    [Fact]
    public void Choice_JoinAndMessage_TheLoserStaysUntilLater_AndExitedRethrowsAFault()
    {
        var inbox = new Mailbox<int>("inbox");
        var release = new Mailbox<int>("release");
        var indexes = new List<int>();
        var child = Scheduler.Spawn(Child(), "child");
        var chooser = Scheduler.Spawn(Choose(), "chooser");
        WaitUntil(() => inbox.IsReceiverParked, "the chooser parks on the join and the mailbox");
        inbox.Send(1);
        WaitUntil(() => indexes.Count == 1 && inbox.IsReceiverParked, "the chooser takes the message and waits again");
        release.Send(0);
        Join(chooser);
        Assert.Equal([1, 0], indexes);

        // Exited of a thread that faulted: the chooser ends with the same exception.
        var faulty = Scheduler.Spawn(Faulty(), "faulty");
        var joiner = Scheduler.Spawn(JoinFaulty(), "joiner");
        var fault = Assert.Throws<InvalidOperationException>(() => joiner.Wait(Timeout));
        Assert.Equal("child failed", fault.Message);
        Assert.Equal(ThreadOutcome.Faulted, faulty.Outcome);

        IEnumerable<Event> Child()
        {
            yield return release.Recv();
        }

        IEnumerable<Event> Choose()
        {
            var choice = new Choice(child.Ended, inbox.Recv());
            yield return choice;
            indexes.Add(choice.Index);
            yield return choice;
            indexes.Add(choice.Index);
            Assert.Equal(ThreadOutcome.Completed, child.Outcome);
        }

        IEnumerable<Event> Faulty()
        {
            yield return Event.Yield;
            throw new InvalidOperationException("child failed");
        }

        IEnumerable<Event> JoinFaulty()
        {
            yield return new Choice(faulty.Exited, new Mailbox<int>("never").Recv());
        }
    }

    [Fact]
    public void Choice_TaskThatLoses_LingersOnItsTask_AndIsChosenWhenItCompletes()
    {
        var inbox = new Mailbox<int>("inbox");
        var first = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var second = new TaskCompletionSource<int>();
        var steps = new List<string>();
        var thread = Scheduler.Spawn(Body(), "chooser");
        WaitUntil(() => inbox.IsReceiverParked, "the chooser parks on the task and the mailbox");
        inbox.Send(1);
        WaitUntil(() => steps.Count == 1 && inbox.IsReceiverParked, "the message wins and the chooser waits again");
        first.SetResult(41);
        WaitUntil(() => steps.Count == 2 && inbox.IsReceiverParked, "the task wins, and the chooser waits on the second task and the mailbox");
        inbox.Send(2);
        WaitUntil(() => steps.Count == 3, "the message wins again, and the chooser waits on the second task alone");
        second.SetException(new TimeoutException("second failed"));
        Join(thread);
        Assert.Equal(["message 1", "task 41", "rearm refused", "fault second failed"], steps);

        IEnumerable<Event> Body()
        {
            var task = new TaskEvent<int>();
            var choice = new Choice(task.For(first.Task), inbox.Recv());
            yield return choice;
            Assert.Equal(1, choice.Index);
            steps.Add($"message {inbox.Recv().Value}");
            Assert.Throws<InvalidOperationException>(() => task.Result);

            // The same choice again: the task still pending, its continuation still registered.
            yield return choice;
            Assert.Equal(0, choice.Index);
            steps.Add($"task {task.Result}");

            // Losing again after it registered, then armed anew while its task is pending: refused.
            var again = new Choice(task.For(second.Task), inbox.Recv());
            yield return again;
            Assert.Equal(1, again.Index);
            try
            {
                task.For(Task.FromResult(0));
            }
            catch (InvalidOperationException)
            {
                steps.Add("rearm refused");
            }

            // Yielded alone, it waits for the same task.
            yield return task;
            try
            {
                _ = task.Result;
            }
            catch (TimeoutException e)
            {
                steps.Add($"fault {e.Message}");
            }
        }
    }

    [Fact]
    public void Choice_CreditThatLoses_TakesNoCredit_AndWinsOnceOneIsReleased()
    {
        var credits = new CreditWindow(1, "credits");
        Assert.True(credits.TryAcquire());
        var inbox = new Mailbox<int>("inbox");
        var indexes = new List<int>();
        var thread = Scheduler.Spawn(Body(), "chooser");
        WaitUntil(() => inbox.IsReceiverParked, "the chooser parks on the credit and the mailbox");
        inbox.Send(1);
        WaitUntil(() => indexes.Count == 1 && inbox.IsReceiverParked, "the message wins and the chooser waits again");
        Assert.Equal(0, credits.Available);
        credits.Release();
        Join(thread);
        Assert.Equal([1, 0], indexes);
        Assert.Equal(0, credits.Available);
        credits.Release();
        Assert.Equal(1, credits.Available);

        IEnumerable<Event> Body()
        {
            var choice = new Choice(credits.Acquire(), inbox.Recv());
            yield return choice;
            indexes.Add(choice.Index);
            yield return choice;
            indexes.Add(choice.Index);
        }
    }

    [Fact]
    public void Choice_EventsThatCannotBeWithdrawn_AreRefusedWhenTheChoiceIsBuilt()
    {
        var bounded = new Mailbox<int>(1, "full");
        bounded.Send(0);
        Event? put = null;
        Run(Body(), "builder");
        var refused = Assert.Throws<ArgumentException>(() => new Choice(put!));
        Assert.Contains("CreatePutEvent", refused.Message);

        IEnumerable<Event> Body()
        {
            put = bounded.Put(1);
            Assert.IsType<PutEvent<int>>(put);
            bounded.TryRecv(out _);
            yield return put;
        }
    }
}
