using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void Choice_DisabledBranch_IsNotTaken_EvenWithAMessageThere_ItsMessagesStayInOrder_AndOnceEnabledItIsTaken()
    {
        var held = new Mailbox<int>("held");
        var open = new Mailbox<int>("open");
        foreach (var m in new[] { 1, 2, 3 })
        {
            held.Send(m);
        }

        open.Send(10);
        var received = new ConcurrentQueue<string>();
        Choice? shared = null;
        var thread = Scheduler.Spawn(Body(), "chooser");

        // With branch 0 disabled and the open mailbox empty, the chooser parks though the held mailbox has messages.
        WaitUntil(() => Volatile.Read(ref shared) is { } c && Probe.IsParked(c), "the chooser parks with a message in its disabled branch");
        Assert.Equal(3, held.Count);
        open.Send(11);
        Join(thread);
        Assert.Equal(["open 10", "open 11", "held 1", "held 2", "held 3"], received);
        Assert.Equal(0, held.Count + open.Count);

        IEnumerable<Event> Body()
        {
            var choice = new Choice(held.Recv(), open.Recv());
            Assert.True(choice.IsEnabled(0) && choice.IsEnabled(1));
            choice.Disable(0);
            choice.Disable(0);
            Assert.False(choice.IsEnabled(0));
            Assert.True(choice.IsEnabled(1));
            Volatile.Write(ref shared, choice);
            for (var i = 0; i < 2; i++)
            {
                yield return choice;
                Assert.Equal(1, choice.Index);
                received.Enqueue($"open {open.Recv().Value}");
            }

            choice.Enable(0);
            choice.Enable(0);
            Assert.True(choice.IsEnabled(0));
            for (var i = 0; i < 3; i++)
            {
                yield return choice;
                Assert.Equal(0, choice.Index);
                received.Enqueue($"held {held.Recv().Value}");
            }
        }
    }

    [Fact]
    public void Choice_DisabledBranches_TheWaitGraphNamesOnlyTheEnabledOnes_AndWithNoneEnabledTheChoiceWaitsForever_UntilStopped()
    {
        var first = new Mailbox<int>("first") { OutlivesReceiver = true };
        var second = new Mailbox<int>("second") { OutlivesReceiver = true };
        first.Send(1);
        var finallies = 0;
        var resumed = 0;
        var phase = 0;
        Choice? shared = null;
        var thread = Scheduler.Spawn(Body(), "chooser");
        ThreadWait? Entry() => Scheduler.GetWaitGraph().Find(thread);

        // Branch 0 disabled: the graph speaks of the second mailbox only.
        WaitUntil(() => Volatile.Read(ref phase) == 1 && Probe.IsParked(Volatile.Read(ref shared)!), "the chooser parks with branch 0 disabled");
        Assert.Equal("one of: [a message on Mailbox<Int32> 'second' (0 queued)] (branch 0 disabled)", Entry()!.Description);
        second.Send(2);

        // Every branch disabled: parked for good, a message in the first mailbox notwithstanding.
        WaitUntil(() => Volatile.Read(ref phase) == 2 && Probe.IsParked(Volatile.Read(ref shared)!), "the chooser parks with every branch disabled");
        var wait = Entry()!;
        Assert.Equal($"nothing: {shared}, with every branch disabled, which never completes", wait.Description);
        Assert.Empty(wait.WaitsOn);
        Assert.False(wait.EndsByTimer);
        Assert.False(wait.EndsFromOutside);
        Assert.Same(shared, wait.Event);
        Assert.Empty(Scheduler.GetWaitGraph().Cycles);

        Assert.True(thread.Stop("test"));
        WaitUntil(() => thread.IsCompleted, "the stopped chooser ends");
        Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        Assert.Equal(1, Volatile.Read(ref finallies));
        Assert.Equal(1, Volatile.Read(ref resumed));
        Assert.Equal(1, first.Count);
        Assert.Equal(0, second.Count);

        IEnumerable<Event> Body()
        {
            var choice = new Choice(first.Recv(), second.Recv());
            try
            {
                choice.Disable(0);
                Volatile.Write(ref shared, choice);
                Volatile.Write(ref phase, 1);
                yield return choice;
                Assert.Equal(1, choice.Index);
                Assert.Equal(2, second.Recv().Value);
                Interlocked.Increment(ref resumed);
                choice.Disable(1);
                Volatile.Write(ref phase, 2);
                yield return choice;
                Interlocked.Increment(ref resumed);
            }
            finally
            {
                Interlocked.Increment(ref finallies);
            }
        }
    }

    [Fact]
    public void Choice_DisableOrEnableWhileAThreadWaitsOnIt_Throws_NamingTheChoice_AndChangesNothing()
    {
        var inbox = new Mailbox<int>("awaited");
        var other = new Mailbox<int>("other");
        var choice = new Choice(inbox.Recv(), other.Recv());
        choice.Disable(1);
        var chosen = -1;
        var thread = Scheduler.Spawn(Body(), "chooser");
        WaitUntil(() => Probe.IsParked(choice), "the chooser parks on the choice");

        var disable = Assert.Throws<InvalidOperationException>(() => choice.Disable(0));
        Assert.Contains(choice.ToString(), disable.Message, StringComparison.Ordinal);
        Assert.Contains("Disable(0)", disable.Message, StringComparison.Ordinal);
        var enable = Assert.Throws<InvalidOperationException>(() => choice.Enable(1));
        Assert.Contains(choice.ToString(), enable.Message, StringComparison.Ordinal);
        Assert.True(choice.IsEnabled(0));
        Assert.False(choice.IsEnabled(1));

        other.Send(1);
        inbox.Send(5);
        Join(thread);
        Assert.Equal(0, chosen);
        Assert.Equal(1, other.Count);

        IEnumerable<Event> Body()
        {
            yield return choice;
            chosen = choice.Index;
            Assert.Equal(5, inbox.Recv().Value);

            // Between yields the owner may change it again.
            choice.Enable(1);
        }
    }

    [Fact]
    public void Choice_DisableEnableIsEnabled_IndexOutOfRange_Throws()
    {
        var choice = new Choice(new Mailbox<int>("a").Recv(), new Mailbox<int>("b").Recv());
        foreach (var index in new[] { -1, 2, int.MaxValue, int.MinValue })
        {
            Assert.Equal("index", Assert.Throws<ArgumentOutOfRangeException>(() => choice.Disable(index)).ParamName);
            Assert.Equal("index", Assert.Throws<ArgumentOutOfRangeException>(() => choice.Enable(index)).ParamName);
            Assert.Equal("index", Assert.Throws<ArgumentOutOfRangeException>(() => choice.IsEnabled(index)).ParamName);
        }

        Assert.True(choice.IsEnabled(0) && choice.IsEnabled(1));

        // The last of the most branches a choice may have, which is the mask's top bit.
        var wide = new Choice(Enumerable.Range(0, Choice.MaxBranches).Select(i => (Event)new Mailbox<int>($"wide {i}").Recv()).ToArray());
        wide.Disable(Choice.MaxBranches - 1);
        Assert.False(wide.IsEnabled(Choice.MaxBranches - 1));
        Assert.True(wide.IsEnabled(Choice.MaxBranches - 2));
    }

    [Fact]
    public void Choice_NilChannelIdiom_AForwarderOffersToSendOnlyWhileItHoldsSomething_EveryMessageOnce_InOrder()
    {
        const int Messages = 500;
        var input = new Mailbox<int>("input");
        var output = new Mailbox<int>(1, "output");
        var received = new List<int>();
        var forwarder = Scheduler.Spawn(Forward(), "forwarder");
        var consumer = Scheduler.Spawn(Consume(), "consumer");
        var sender = new Thread(() =>
        {
            for (var m = 0; m < Messages; m++)
            {
                input.Send(m);
            }
        });
        sender.Start();
        Assert.True(sender.Join(Timeout));
        Join(forwarder);
        Join(consumer);
        Assert.Equal(Enumerable.Range(0, Messages), received);

        IEnumerable<Event> Forward()
        {
            // The put is armed only while something is pending: disabled, it is never yielded unarmed.
            var pending = new Queue<int>();
            var put = output.CreatePutEvent();
            var choice = new Choice(input.Recv(), put);
            var taken = 0;
            while (taken < Messages || pending.Count > 0)
            {
                if (pending.Count == 0)
                {
                    choice.Disable(1);
                }
                else
                {
                    choice.Enable(1);
                    put.For(pending.Peek());
                }

                if (taken == Messages)
                {
                    choice.Disable(0);
                }

                yield return choice;
                if (choice.Index == 0)
                {
                    pending.Enqueue(input.Recv().Value);
                    taken++;
                }
                else
                {
                    Assert.True(put.IsSent);
                    pending.Dequeue();
                }
            }
        }

        IEnumerable<Event> Consume()
        {
            var receive = output.Recv();
            while (received.Count < Messages)
            {
                yield return receive;
                received.Add(receive.Value);
            }
        }
    }
}
