using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// <see cref="Mailbox{T}.AsChannelReader"/>: async code as a mailbox's receiver, fed by green threads and OS threads,
/// under every configuration; every message counted.
/// </summary>
public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(0)]
    [InlineData(8)]
    public async Task MailboxReader_GreenAndOsSenders_AsyncConsumerReadsEachOnceInOrder_ThenTheEnd(int capacity)
    {
        const int PerSender = 20_000;
        var inbox = capacity > 0 ? new Mailbox<(int Sender, int Sequence)>(capacity, "to async") : new Mailbox<(int Sender, int Sequence)>("to async");
        var reader = inbox.AsChannelReader();
        Assert.Same(reader, inbox.AsChannelReader());

        // The consumer starts first, so it waits on the empty mailbox; yields now and then make more waits.
        var next = new int[3];
        var consumer = Task.Run(async () =>
        {
            var read = 0;
            await foreach (var (sender, sequence) in reader.ReadAllAsync())
            {
                Assert.Equal(next[sender], sequence);
                next[sender]++;
                if (++read % 1000 == 0)
                {
                    await Task.Yield();
                }
            }
        });
        var green = new[] { Scheduler.Spawn(Produce(0), "sender 0"), Scheduler.Spawn(Produce(1), "sender 1") };
        var osThread = new Thread(() =>
        {
            for (var i = 0; i < PerSender; i++)
            {
                inbox.Send((2, i));
            }
        });
        osThread.Start();
        foreach (var thread in green)
        {
            Join(thread);
        }

        Assert.True(osThread.Join(Timeout));
        inbox.Complete();
        await consumer.WaitAsync(Timeout);
        Assert.Equal([PerSender, PerSender, PerSender], next);
        Assert.True(reader.Completion.IsCompletedSuccessfully);
        Assert.False(reader.TryRead(out _));
        Assert.False(await reader.WaitToReadAsync().AsTask().WaitAsync(Timeout));

        IEnumerable<Event> Produce(int sender)
        {
            var put = inbox.CreatePutEvent();
            for (var i = 0; i < PerSender; i++)
            {
                if (capacity > 0)
                {
                    yield return put.For((sender, i));
                }
                else
                {
                    inbox.Send((sender, i));
                    if (i % 64 == 0)
                    {
                        yield return Event.Yield;
                    }
                }
            }
        }
    }

    [Fact]
    public async Task MailboxReader_CompletedWithAnError_MessagesFirst_ThenTheWaitThrowsItWrapped_AndCompletionFaultsWithIt()
    {
        var inbox = new Mailbox<int>("failing");
        var reader = inbox.AsChannelReader();
        var completion = reader.Completion;
        var error = new InvalidOperationException("the producer failed");
        Run(SendThenFail(), "producer");

        Assert.Equal(1, await reader.ReadAsync().AsTask().WaitAsync(Timeout));
        Assert.True(reader.TryPeek(out var peeked));
        Assert.Equal(2, peeked);
        Assert.Equal(1, reader.Count);
        Assert.True(reader.TryRead(out var second));
        Assert.Equal(2, second);
        Assert.False(completion.IsCompleted);
        var closed = await Assert.ThrowsAsync<ChannelClosedException>(() => reader.WaitToReadAsync().AsTask().WaitAsync(Timeout));
        Assert.Same(error, closed.InnerException);
        Assert.Same(error, await Assert.ThrowsAsync<InvalidOperationException>(() => completion.WaitAsync(Timeout)));
        await Assert.ThrowsAsync<ChannelClosedException>(() => reader.ReadAsync().AsTask().WaitAsync(Timeout));

        IEnumerable<Event> SendThenFail()
        {
            inbox.Send(1);
            inbox.Send(2);
            inbox.Complete(error);
            yield break;
        }
    }

    [Fact]
    public async Task MailboxReader_Completion_CompletesWhenAnEmptyMailboxIsCompleted_WithoutAnotherRead()
    {
        var inbox = new Mailbox<int>("empty, then completed");
        var completion = inbox.AsChannelReader().Completion;
        Assert.False(completion.IsCompleted);
        Run(CompleteIt(), "completer");
        await completion.WaitAsync(Timeout);

        IEnumerable<Event> CompleteIt()
        {
            inbox.Complete();
            yield break;
        }
    }

    [Fact]
    public async Task MailboxReader_WaitWokenByAGreenSend_ResumesOffTheWorkers()
    {
        var inbox = new Mailbox<int>("woken");
        var reader = inbox.AsChannelReader();
        var wait = reader.WaitToReadAsync().AsTask();
        Assert.False(wait.IsCompleted);
        var workers = Probe.WorkerThreadIds(Scheduler);
        var resumedOn = -1;
        var resumed = Task.Run(async () =>
        {
            Assert.True(await wait.ConfigureAwait(false));
            resumedOn = Environment.CurrentManagedThreadId;
        });
        Run(SendOne(), "sender");
        await resumed.WaitAsync(Timeout);
        Assert.DoesNotContain(resumedOn, workers);
        Assert.True(reader.TryRead(out var message));
        Assert.Equal(5, message);

        IEnumerable<Event> SendOne()
        {
            inbox.Send(5);
            yield break;
        }
    }

    [Fact]
    public async Task MailboxReader_CanceledWait_TakesNothing_AndTheNextReadGetsTheMessage()
    {
        var inbox = new Mailbox<int>("canceled wait");
        var reader = inbox.AsChannelReader();
        using var source = new CancellationTokenSource();
        var wait = reader.WaitToReadAsync(source.Token).AsTask();
        WaitUntil(() => inbox.IsReceiverParked, "the reader's wait parks");
        await source.CancelAsync();
        var canceled = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => wait.WaitAsync(Timeout));
        Assert.Equal(source.Token, canceled.CancellationToken);
        Assert.False(inbox.IsReceiverParked);

        inbox.Send(3);
        Assert.Equal(1, reader.Count);
        Assert.Equal(3, await reader.ReadAsync().AsTask().WaitAsync(Timeout));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => reader.WaitToReadAsync(source.Token).AsTask());
    }

    [Fact]
    public async Task MailboxReader_CancellationsRacingSends_EveryMessageReadOnce()
    {
        const int Rounds = 300;
        var inbox = new Mailbox<int>("racing");
        var reader = inbox.AsChannelReader();
        var read = new List<int>();
        var canceled = 0;
        for (var round = 0; round < Rounds; round++)
        {
            using var source = new CancellationTokenSource();
            var wait = reader.WaitToReadAsync(source.Token).AsTask();
            using (var start = new Barrier(2))
            {
                var sending = Task.Run(() =>
                {
                    start.SignalAndWait();
                    inbox.Send(round);
                });
                start.SignalAndWait();
                source.Cancel();
                await sending.WaitAsync(Timeout);
            }

            try
            {
                Assert.True(await wait.WaitAsync(Timeout));
            }
            catch (OperationCanceledException)
            {
                canceled++;
            }

            // Canceled or not, the round's message is there, once.
            Assert.True(reader.TryRead(out var message), $"round {round}: the message was lost");
            read.Add(message);
            Assert.False(reader.TryRead(out var extra), $"round {round}: read {extra} twice");
        }

        Assert.Equal(Enumerable.Range(0, Rounds), read);
        Assert.InRange(canceled, 0, Rounds);
    }

    [Fact]
    public async Task MailboxReader_TryReadWhileAWaitIsParked_EndsTheWaitAndKeepsEveryMessage()
    {
        var inbox = new Mailbox<int>("read while waiting");
        var reader = inbox.AsChannelReader();
        var wait = reader.WaitToReadAsync().AsTask();
        WaitUntil(() => inbox.IsReceiverParked, "the reader's wait parks");
        Assert.False(reader.TryRead(out _));
        Assert.True(await wait.WaitAsync(Timeout));
        Assert.False(inbox.IsReceiverParked);

        // The mailbox works on: a new wait parks, and a send wakes it.
        var second = reader.WaitToReadAsync().AsTask();
        WaitUntil(() => inbox.IsReceiverParked, "the second wait parks");
        inbox.Send(1);
        Assert.True(await second.WaitAsync(Timeout));
        Assert.True(reader.TryRead(out var message));
        Assert.Equal(1, message);
    }

    [Fact]
    public async Task MailboxReader_Misuse_IsRefusedNamingTheMailbox()
    {
        // A green thread may not receive once async code does.
        var owned = new Mailbox<int>("owned by async");
        var reader = owned.AsChannelReader();
        var thief = Scheduler.Spawn(ReceiveOne(owned), "thief");
        var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => thief.AsTask().WaitAsync(Timeout));
        Assert.Contains("'thief'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("'owned by async'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("AsChannelReader", refused.Message, StringComparison.Ordinal);
        Assert.Null(owned.Receiver);

        // Async code may not take over from a live green receiver.
        var held = new Mailbox<int>("held by green") { OutlivesReceiver = true };
        var receiver = Scheduler.Spawn(ReceiveOne(held), "receiver");
        WaitUntil(() => held.IsReceiverParked, "the green receiver parks");
        var taken = Assert.Throws<InvalidOperationException>(held.AsChannelReader);
        Assert.Contains("'held by green'", taken.Message, StringComparison.Ordinal);
        Assert.Contains("'receiver'", taken.Message, StringComparison.Ordinal);
        held.Send(1);
        Join(receiver);

        // ...but may once it has ended.
        Assert.NotNull(held.AsChannelReader());

        // One wait at a time.
        var first = reader.WaitToReadAsync().AsTask();
        var twice = Assert.Throws<InvalidOperationException>(() => { _ = reader.WaitToReadAsync().AsTask(); });
        Assert.Contains("'owned by async'", twice.Message, StringComparison.Ordinal);
        owned.Send(2);
        Assert.True(await first.WaitAsync(Timeout));
        Assert.True(reader.TryRead(out var message));
        Assert.Equal(2, message);
        ExpectUnobservedFaults = true;

        static IEnumerable<Event> ReceiveOne(Mailbox<int> inbox)
        {
            yield return inbox.Recv();
        }
    }

    [Fact]
    public async Task MailboxReader_AttachRacingAGreenReceiversFirstReceive_ExactlyOneOwnsTheMailbox_AndNoMessageIsLost()
    {
        const int Rounds = 200;
        var outcomes = new int[2];
        for (var round = 0; round < Rounds; round++)
        {
            var inbox = new Mailbox<int>($"contested {round}");
            var received = new int[] { -1 };
            ChannelReader<int>? reader = null;
            GreenThread green;
            using (var start = new Barrier(2))
            {
                var attaching = Task.Run(() =>
                {
                    start.SignalAndWait();
                    try
                    {
                        reader = inbox.AsChannelReader();
                    }
                    catch (InvalidOperationException)
                    {
                    }
                });
                start.SignalAndWait();
                green = Scheduler.Spawn(Receive(inbox, received), "contender");
                await attaching.WaitAsync(Timeout);
            }

            inbox.Send(round);
            await green.AsTask().ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(Timeout);
            if (reader is not null)
            {
                // The reader attached: the green thread was refused, and the reader has the message.
                Assert.Equal(ThreadOutcome.Faulted, green.Outcome);
                Assert.True(reader.TryRead(out var message));
                Assert.Equal(round, message);
                outcomes[0]++;
            }
            else
            {
                // The green thread bound first: the attach was refused, never both (the bind waits for the attach's decision).
                Assert.Equal(ThreadOutcome.Completed, green.Outcome);
                Assert.Equal(round, received[0]);
                outcomes[1]++;
            }
        }

        Assert.Equal(Rounds, outcomes.Sum());
        ExpectUnobservedFaults = true;

        static IEnumerable<Event> Receive(Mailbox<int> inbox, int[] received)
        {
            var message = inbox.Recv();
            yield return message;
            received[0] = message.Value;
        }
    }

    [Fact]
    public async Task MailboxReader_ReadyReadsAndWaitsAllocateNothing()
    {
        var inbox = new Mailbox<int>("steady");
        var reader = inbox.AsChannelReader();
        for (var i = 0; i < 100; i++)
        {
            inbox.Send(i);
            Assert.True(await reader.WaitToReadAsync());
            Assert.True(reader.TryRead(out _));
        }

        // The last await may have resumed on a thread-pool thread that never sent: its first send makes that OS
        // thread's context (once per thread, not per message), which must not be charged to the loop below.
        inbox.Send(-1);
        Assert.True(reader.TryRead(out _));

        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 1000; i++)
        {
            inbox.Send(i);
            Assert.True(IsReadyWithTrue(reader.WaitToReadAsync()));
            Assert.True(reader.TryRead(out _));
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);

        static bool IsReadyWithTrue(ValueTask<bool> wait) => wait.IsCompletedSuccessfully && wait.Result;
    }
}
