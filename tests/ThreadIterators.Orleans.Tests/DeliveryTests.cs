using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans.Tests;

/// <summary>Sends across the silos of a real cluster: every message once, in per-sender order, and misuse named.</summary>
[Collection(nameof(SharedCluster))]
public sealed class DeliveryTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Messages_FromSeveralSendersOnOneSilo_ReachAProcessOnTheOther_EachOnce_InPerSenderOrder()
    {
        const int GreenSenders = 4;
        const int OsSenders = 2;
        const int PerSender = 170_000;
        const int Senders = GreenSenders + OsSenders;
        var next = new long[Senders];
        var received = 0L;
        var faults = new ConcurrentQueue<string>();
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        // The receiver checks order itself: a message is sender * 2^32 + its number from that sender.
        Scheduler? ranOn = null;
        IEnumerable<Event> Sink(Mailbox<long> inbox)
        {
            ranOn = GreenThread.Current!.Scheduler;
            while (received < (long)Senders * PerSender)
            {
                yield return inbox.Recv();
                var message = inbox.Recv().Value;
                var sender = (int)(message >> 32);
                var number = message & 0xFFFF_FFFF;
                if (number != next[sender])
                {
                    faults.Enqueue($"sender {sender}: got {number}, expected {next[sender]}");
                }

                next[sender] = number + 1;
                received++;
            }

            done.TrySetResult();
        }

        var sink = await fixture.Second.SpawnAsync<long>($"sink/{Guid.NewGuid():N}", Sink);
        var target = fixture.First.Get<long>(sink.Name);

        IEnumerable<Event> GreenSender(int sender)
        {
            for (long i = 0; i < PerSender; i++)
            {
                target.Send(((long)sender << 32) | i);
                if (i % 256 == 0)
                {
                    yield return Event.Yield;
                }
            }
        }

        for (var s = 0; s < GreenSenders; s++)
        {
            fixture.First.Scheduler.Spawn(GreenSender(s), $"sender {s}");
        }

        var osThreads = Enumerable.Range(GreenSenders, OsSenders).Select(sender => new Thread(() =>
        {
            for (long i = 0; i < PerSender; i++)
            {
                target.Send(((long)sender << 32) | i);
            }
        })).ToList();
        osThreads.ForEach(thread => thread.Start());

        if (await Task.WhenAny(done.Task, Task.Delay(Generous)) != done.Task)
        {
            Assert.Fail($"The sink received {Volatile.Read(ref received)} of {(long)Senders * PerSender} messages in {Generous}; first faults: {string.Join("; ", faults.Take(5))}");
        }

        osThreads.ForEach(thread => thread.Join());
        Assert.Same(fixture.Second.Scheduler, ranOn);
        Assert.True(fixture.First.Node().HasLinkTo(sink.Name));
        Assert.Empty(faults);
        Assert.Equal((long)Senders * PerSender, received);
        Assert.All(next, count => Assert.Equal(PerSender, count));
    }

    [Fact]
    public async Task AProcessOfARegisteredKind_IsStartedOnDemand_Once_AndBothSilosReachIt()
    {
        var name = $"count/{Guid.NewGuid():N}";
        var fromFirst = fixture.First.Get<long>(name);
        var fromSecond = fixture.Second.Get<long>(name);
        for (long i = 0; i < 100; i++)
        {
            fromFirst.Send(i);
        }

        for (long i = 100; i < 200; i++)
        {
            fromSecond.Send(i);
        }

        // The -1 that ends the process is sent once all 200 have arrived: the two silos' sends have no order between them.
        var record = ClusterFixture.Counted.GetOrAdd(name, _ => new CountedProcess());
        await LifetimeTests.WaitUntil(() => record.Messages.Count == 200);
        fromSecond.Send(-1);
        await record.Ended.Task.WaitAsync(Generous);

        var messages = record.Messages.ToArray();
        Assert.True(record.Starts.Count == 1, $"{record.Starts.Count} processes started; messages: {string.Join(",", messages)}");
        Assert.True(messages.Length == 200, $"{messages.Length} messages: {string.Join(",", messages)}");
        Assert.Equal(Enumerable.Range(0, 100).Select(i => (long)i), messages.Where(m => m < 100));
        Assert.Equal(Enumerable.Range(100, 100).Select(i => (long)i), messages.Where(m => m >= 100));
    }

    [Fact]
    public async Task ASendToANameNoKindIsRegisteredFor_IsADeadLetter_OnTheSendersScheduler()
    {
        var name = $"nobody/{Guid.NewGuid():N}";
        var letters = new ConcurrentQueue<DeadLetterEventArgs>();
        var all = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        void OnDeadLetter(object? sender, DeadLetterEventArgs args)
        {
            if (args.Mailbox is ProcessRef<string> target && target.Name == name)
            {
                letters.Enqueue(args);
                if (letters.Count == 3)
                {
                    all.TrySetResult();
                }
            }
        }

        fixture.First.Scheduler.DeadLetter += OnDeadLetter;
        try
        {
            var target = fixture.First.Get<string>(name);
            target.Send("a");
            target.Send("b");
            target.Send("c");
            await all.Task.WaitAsync(Generous);
        }
        finally
        {
            fixture.First.Scheduler.DeadLetter -= OnDeadLetter;
        }

        Assert.Equal(["a", "b", "c"], letters.Select(letter => (string)letter.Message!));
        Assert.All(letters, letter => Assert.Equal(DeadLetterReason.Undeliverable, letter.Reason));
    }

    [Fact]
    public async Task AMessageOfAnotherType_IsADeadLetter_AndTheProcessGoesOn()
    {
        var name = $"count/{Guid.NewGuid():N}";
        fixture.Second.Get<long>(name).Send(1);
        var letter = await DeadLetters.FirstTo<string>(fixture.First, name, () => fixture.First.Get<string>(name).Send("not a number"), Generous);
        Assert.Equal("not a number", letter.Message);
        Assert.Equal(DeadLetterReason.Undeliverable, letter.Reason);

        fixture.Second.Get<long>(name).Send(2);
        fixture.Second.Get<long>(name).Send(-1);
        var record = ClusterFixture.Counted.GetOrAdd(name, _ => new CountedProcess());
        await record.Ended.Task.WaitAsync(Generous);
        Assert.Equal([1L, 2L], record.Messages.ToArray());
    }

    [Fact]
    public async Task ASpawnUnderAHeldName_Fails_NamingIt()
    {
        var name = $"held/{Guid.NewGuid():N}";
        var release = new Mailbox<int>();
        IEnumerable<Event> Holder(Mailbox<int> inbox)
        {
            yield return inbox.Recv();
        }

        var held = await fixture.First.SpawnAsync<int>(name, Holder);
        var onOther = await Assert.ThrowsAsync<InvalidOperationException>(() => fixture.Second.SpawnAsync<int>(name, Holder));
        var onSame = await Assert.ThrowsAsync<InvalidOperationException>(() => fixture.First.SpawnAsync<int>(name, Holder));
        Assert.Contains(name, onOther.Message, StringComparison.Ordinal);
        Assert.Contains(name, onSame.Message, StringComparison.Ordinal);
        held.Send(0);
    }

    [Fact]
    public void AMessageTypeOrleansCannotSerialize_IsRefused_AtTheHandle_NamingIt()
    {
        var error = Assert.Throws<ArgumentException>(() => fixture.First.Get<NotSerializable>("count/x"));
        Assert.Contains(nameof(NotSerializable), error.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => fixture.First.Get<long>(string.Empty));
    }

    [Fact]
    public async Task OnItsOwnSilo_ASendGoesStraightIntoTheInbox_WithNoGrainCall()
    {
        var got = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Receiver(Mailbox<int> inbox)
        {
            yield return inbox.Recv();
            got.TrySetResult(inbox.Recv().Value);
        }

        var process = await fixture.First.SpawnAsync<int>($"local/{Guid.NewGuid():N}", Receiver);
        process.Send(42);
        Assert.Equal(42, await got.Task.WaitAsync(Generous));
        Assert.False(fixture.First.Node().HasLinkTo(process.Name));
    }

    [Fact]
    public async Task AHandleSentInAMessage_IsBoundOnTheSiloThatReceivesIt_AndAnswersGoBack()
    {
        var answers = new ConcurrentQueue<long>();
        var got = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Asker(Mailbox<long> inbox)
        {
            for (var i = 0; i < 3; i++)
            {
                yield return inbox.Recv();
                answers.Enqueue(inbox.Recv().Value);
            }

            got.TrySetResult();
        }

        IEnumerable<Event> Answerer(Mailbox<ProcessRef<long>> inbox)
        {
            for (var i = 0; i < 3; i++)
            {
                yield return inbox.Recv();
                inbox.Recv().Value.Send(100 + i);
            }
        }

        var asker = await fixture.First.SpawnAsync<long>($"asker/{Guid.NewGuid():N}", Asker);
        var answerer = await fixture.Second.SpawnAsync<ProcessRef<long>>($"answerer/{Guid.NewGuid():N}", Answerer);
        var fromFirst = fixture.First.Get<ProcessRef<long>>(answerer.Name);
        for (var i = 0; i < 3; i++)
        {
            fromFirst.Send(asker);
        }

        await got.Task.WaitAsync(Generous);
        Assert.Equal([100L, 101L, 102L], answers.ToArray());
        Assert.True(fixture.Second.Node().HasLinkTo(asker.Name), "The answers did not cross back through a grain call.");
    }

    [Fact]
    public void AHandleOfObject_ChecksEachMessagesOwnType_AtItsSend()
    {
        var target = fixture.First.Get<object>($"count/{Guid.NewGuid():N}");
        var error = Assert.Throws<ArgumentException>(() => target.Send(new NotSerializable()));
        Assert.Contains(nameof(NotSerializable), error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ALinkIdleForASweep_IsRetired_AndLaterSendsMakeANewOne_InOrder()
    {
        var name = $"count/{Guid.NewGuid():N}";
        var record = ClusterFixture.Counted.GetOrAdd(name, _ => new CountedProcess());
        var fromFirst = fixture.First.Get<long>(name);

        // Started on the second silo, so the first silo's sends go through a link.
        fixture.Second.Get<long>(name).Send(0);
        await LifetimeTests.WaitUntil(() => record.Messages.Count == 1);
        for (long i = 1; i <= 100; i++)
        {
            fromFirst.Send(i);
        }

        await LifetimeTests.WaitUntil(() => record.Messages.Count == 101 && fixture.First.Node().LinkIsIdle(name));
        Assert.True(fixture.First.Node().HasLinkTo(name));
        fixture.First.Node().Sweep();
        Assert.True(fixture.First.Node().HasLinkTo(name), "A link used since the last sweep was retired.");
        fixture.First.Node().Sweep();
        Assert.False(fixture.First.Node().HasLinkTo(name), "A link idle for a whole sweep was kept.");

        for (long i = 101; i <= 200; i++)
        {
            fromFirst.Send(i);
        }

        fromFirst.Send(-1);
        await record.Ended.Task.WaitAsync(Generous);
        Assert.Equal(Enumerable.Range(0, 201).Select(i => (long)i), record.Messages.ToArray());
    }

    [Fact]
    public async Task AMessageTooLargeForTheCluster_IsADeadLetter_AndOnlyIt_TheOthersInItsBatchArriveInOrder()
    {
        var name = $"words/{Guid.NewGuid():N}";
        var received = new ConcurrentQueue<string>();
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Words(Mailbox<string> inbox)
        {
            while (true)
            {
                yield return inbox.Recv();
                var word = inbox.Recv().Value;
                if (word == "end")
                {
                    done.TrySetResult();
                    yield break;
                }

                received.Enqueue(word);
            }
        }

        var process = await fixture.Second.SpawnAsync<string>(name, Words);
        var huge = new string('x', ClusterFixture.MaxMessageBytes * 2);
        var letters = new ConcurrentQueue<DeadLetterEventArgs>();
        void OnDeadLetter(object? sender, DeadLetterEventArgs args)
        {
            if (args.Mailbox is ProcessRef<string> target && target.Name == name)
            {
                letters.Enqueue(args);
            }
        }

        fixture.First.Scheduler.DeadLetter += OnDeadLetter;
        try
        {
            var target = fixture.First.Get<string>(name);
            for (var i = 0; i < 50; i++)
            {
                target.Send(i == 25 ? huge : $"w{i}");
            }

            target.Send("end");
            await done.Task.WaitAsync(Generous);
        }
        finally
        {
            fixture.First.Scheduler.DeadLetter -= OnDeadLetter;
        }

        Assert.Equal(Enumerable.Range(0, 50).Where(i => i != 25).Select(i => $"w{i}"), received.ToArray());
        var letter = Assert.Single(letters);
        Assert.Same(huge, letter.Message);
        Assert.Equal(DeadLetterReason.Undeliverable, letter.Reason);
    }

    public sealed class NotSerializable
    {
        public int Value { get; set; }
    }
}
