using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    /// <summary>The channels the read tests run on: each kind of built-in channel a green thread may read.</summary>
    public static TheoryData<string> ChannelKinds => new()
    {
        "unbounded",
        "unbounded, single reader",
        "unbounded, synchronous continuations",
        "bounded 4",
        "bounded 1, single reader, synchronous continuations",
    };

    [Theory]
    [MemberData(nameof(ChannelKinds))]
    public async Task ChannelRead_ItemsFromAnOsThreadAndAsyncCode_EachReadOnceInOrder_ThenCompletionAfterTheLast(string kind)
    {
        const int PerWriter = 5_000;
        var channel = MakeChannel<(int Writer, int Sequence)>(kind);
        var next = new int[2];
        var afterCompletion = new List<string>();
        var reader = Scheduler.Spawn(Read(), "reader");

        // One plain OS thread, and async code on the thread pool that yields now and then, so some items find the
        // green thread parked and some find it running.
        var osThread = new Thread(() =>
        {
            for (var i = 0; i < PerWriter; i++)
            {
                while (!channel.Writer.TryWrite((0, i)))
                {
                    Thread.Yield();
                }
            }
        });
        osThread.Start();
        var asyncWriter = Task.Run(async () =>
        {
            for (var i = 0; i < PerWriter; i++)
            {
                await channel.Writer.WriteAsync((1, i));
                if (i % 64 == 0)
                {
                    await Task.Yield();
                }
            }
        });
        Assert.True(osThread.Join(Timeout));
        await asyncWriter.WaitAsync(Timeout);
        channel.Writer.Complete();
        Join(reader);

        Assert.Equal([PerWriter, PerWriter], next);
        Assert.Equal(["completed", "closed, no inner", "completed again"], afterCompletion);

        IEnumerable<Event> Read()
        {
            var read = channel.Reader.CreateReadEvent();
            while (true)
            {
                yield return read;
                if (read.IsCompleted)
                {
                    break;
                }

                // Every item once, in each writer's order: the next one expected from its writer.
                var (writer, sequence) = read.Value;
                Assert.Equal(next[writer], sequence);
                next[writer]++;
            }

            afterCompletion.Add("completed");
            var closed = Assert.Throws<ChannelClosedException>(() => read.Value);
            afterCompletion.Add(closed.InnerException is null ? "closed, no inner" : $"closed by {closed.InnerException}");

            // A completed channel stays completed: the next read completes at once.
            yield return read;
            afterCompletion.Add(read.IsCompleted ? "completed again" : "an item after completion");
        }
    }

    [Fact]
    public void ChannelRead_CompletedWithAnError_TheItemsComeFirst_ThenValueThrowsChannelClosed_WithTheError()
    {
        var failure = new InvalidOperationException("the producer failed");

        // Completed before the thread reads (every read completes at once), and while it is parked.
        var early = Channel.CreateUnbounded<int>();
        early.Writer.TryWrite(1);
        early.Writer.TryWrite(2);
        early.Writer.Complete(failure);
        var late = Channel.CreateBounded<int>(2);
        late.Writer.TryWrite(1);
        late.Writer.TryWrite(2);
        var seen = new List<string>();
        Run(ReadAll(early.Reader.CreateReadEvent(), "early"));

        var lateRead = late.Reader.CreateReadEvent();
        var reader = Scheduler.Spawn(ReadAll(lateRead, "late"), "late reader");
        WaitUntil(() => seen.Count == 6 && Probe.IsWaiting(lateRead), "the late reader takes both items and parks");
        late.Writer.Complete(failure);
        Join(reader);

        Assert.Equal(["early 1", "early 2", "early completed", "late 1", "late 2", "late completed"], seen.Where(s => !s.StartsWith("error", StringComparison.Ordinal)));
        Assert.Equal(["error the producer failed", "error the producer failed"], seen.Where(s => s.StartsWith("error", StringComparison.Ordinal)));

        IEnumerable<Event> ReadAll(ChannelReadEvent<int> read, string name)
        {
            while (true)
            {
                yield return read;
                if (read.IsCompleted)
                {
                    seen.Add($"{name} completed");
                    var closed = Assert.Throws<ChannelClosedException>(() => read.Value);
                    Assert.Same(failure, closed.InnerException);
                    seen.Add($"error {closed.InnerException!.Message}");
                    yield break;
                }

                seen.Add($"{name} {read.Value}");
            }
        }
    }

    [Fact]
    public async Task ChannelWrite_IntoABoundedChannelAnAsyncConsumerDrains_ParksWhenFull_AndEveryItemArrivesOnceInOrder()
    {
        const int Items = 10_000;
        var channel = Channel.CreateBounded<int>(new BoundedChannelOptions(4) { SingleReader = true });
        var write = channel.Writer.CreateWriteEvent();
        var writer = Scheduler.Spawn(Write(), "writer");

        // Nobody reads yet: the writer fills the channel and parks.
        WaitUntil(() => Probe.IsWaiting(write), "the writer parks on the full channel");
        Assert.Equal(4, channel.Reader.Count);
        var consumed = await Consume().WaitAsync(Timeout);
        Join(writer);
        Assert.Equal(Items, consumed);

        IEnumerable<Event> Write()
        {
            for (var i = 0; i < Items; i++)
            {
                yield return write.For(i);
                write.GetResult();
                Assert.True(write.IsWritten);
            }

            channel.Writer.Complete();
        }

        async Task<int> Consume()
        {
            var count = 0;
            await foreach (var item in channel.Reader.ReadAllAsync())
            {
                Assert.Equal(count, item);
                count++;
            }

            return count;
        }
    }

    [Fact]
    public void ChannelWrite_ChannelCompletedWhileTheWriterWaits_TheItemIsNotWritten_AndGetResultThrowsChannelClosed()
    {
        var failure = new InvalidOperationException("the consumer gave up");
        var full = Channel.CreateBounded<string>(1);
        full.Writer.TryWrite("first");
        var write = full.Writer.CreateWriteEvent();
        var outcomes = new List<string>();
        var writer = Scheduler.Spawn(Write(), "writer");
        WaitUntil(() => Probe.IsWaiting(write), "the writer parks on the full channel");
        full.Writer.Complete(failure);
        Join(writer);

        Assert.Equal(["not written", "closed by the consumer gave up", "not written again"], outcomes);
        Assert.True(full.Reader.TryRead(out var only));
        Assert.Equal("first", only);
        Assert.False(full.Reader.TryRead(out _));

        IEnumerable<Event> Write()
        {
            yield return write.For("second");
            outcomes.Add(write.IsWritten ? "written" : "not written");
            var closed = Assert.Throws<ChannelClosedException>(write.GetResult);
            outcomes.Add($"closed by {closed.InnerException?.Message}");

            // Completed already: refused at once.
            yield return write.For("third");
            outcomes.Add(write.IsWritten ? "written" : "not written again");
        }
    }

    [Fact]
    public void ChannelEvents_ReadyReadsAndWrites_AllocateNothing()
    {
        const int Chunks = 25;
        const int PairsPerChunk = 20;
        var channel = Channel.CreateBounded<int>(new BoundedChannelOptions(64) { SingleReader = true, SingleWriter = true });
        var allocated = -1L;
        var sum = 0L;
        Run(Body());

        Assert.Equal(0, allocated);
        Assert.Equal((5 + (Chunks * PairsPerChunk)) * 3L, sum);

        IEnumerable<Event> Body()
        {
            var read = channel.Reader.CreateReadEvent();
            var write = channel.Writer.CreateWriteEvent();

            // Warm-up, not measured: the first waits compile the path.
            for (var i = 0; i < 5; i++)
            {
                yield return write.For(3);
                yield return read;
                sum += read.Value;
            }

            var total = 0L;
            for (var chunk = 0; chunk < Chunks; chunk++)
            {
                // A fresh turn, so the chunk's waits stay inside one turn's step budget, on one OS thread.
                yield return Event.Yield;
                var before = GC.GetAllocatedBytesForCurrentThread();
                for (var i = 0; i < PairsPerChunk; i++)
                {
                    // Room and an item are always there: neither wait parks.
                    yield return write.For(3);
                    yield return read;
                    sum += read.Value;
                }

                total += GC.GetAllocatedBytesForCurrentThread() - before;
            }

            allocated = total;
        }
    }

    [Fact]
    public void ChannelRead_SchedulerDisposedWhileWaiting_FinallyRunsOnce_AndALaterItemStaysInTheChannel()
    {
        var channel = Channel.CreateUnbounded<int>();
        var full = Channel.CreateBounded<int>(1);
        full.Writer.TryWrite(1);
        var read = channel.Reader.CreateReadEvent();
        var write = full.Writer.CreateWriteEvent();
        var finallies = new int[2];
        var reader = Scheduler.Spawn(Read(), "reader");
        var writer = Scheduler.Spawn(Write(), "writer");
        WaitUntil(() => Probe.IsWaiting(read) && Probe.IsWaiting(write), "both threads park on their channels");
        Scheduler.Dispose();

        Assert.Equal([1, 1], finallies);
        Assert.Throws<OperationCanceledException>(() => reader.Wait(Timeout));
        Assert.Throws<OperationCanceledException>(() => writer.Wait(Timeout));

        // The abandoned read takes nothing: an item written afterwards is there for another reader.
        Assert.True(channel.Writer.TryWrite(7));
        Assert.True(channel.Reader.TryRead(out var item));
        Assert.Equal(7, item);

        // The abandoned write wrote nothing: only the item that filled the channel is there.
        Assert.True(full.Reader.TryRead(out var only));
        Assert.Equal(1, only);
        Assert.False(full.Reader.TryRead(out _));
        Assert.Equal([1, 1], finallies);

        IEnumerable<Event> Read()
        {
            try
            {
                yield return read;
                Assert.Fail("resumed after its scheduler was disposed");
            }
            finally
            {
                finallies[0]++;
            }
        }

        IEnumerable<Event> Write()
        {
            try
            {
                yield return write.For(2);
                Assert.Fail("resumed after its scheduler was disposed");
            }
            finally
            {
                finallies[1]++;
            }
        }
    }

    [Fact]
    public void ChannelEvents_Misuse_EndsTheThreadWithAMessageNamingTheEvent()
    {
        var channel = Channel.CreateUnbounded<int>();
        var read = channel.Reader.CreateReadEvent();
        var write = channel.Writer.CreateWriteEvent();
        Assert.Equal("ChannelReadEvent<Int32> (nothing read yet)", read.ToString());
        Assert.Equal("ChannelWriteEvent<Int32> (unarmed)", write.ToString());
        Assert.Throws<InvalidOperationException>(() => read.Value);
        Assert.Throws<InvalidOperationException>(write.GetResult);

        // A write yielded without an item.
        var unarmed = Scheduler.Spawn(YieldUnarmed(), "unarmed writer");
        var error = Assert.Throws<InvalidOperationException>(() => unarmed.Wait(Timeout));
        Assert.Contains("'unarmed writer'", error.Message, StringComparison.Ordinal);
        Assert.Contains("without arming it", error.Message, StringComparison.Ordinal);

        // A read event is bound to the first thread that yields it.
        Run(ReadOnce(), "first reader");
        Assert.Equal("ChannelReadEvent<Int32> (item read)", read.ToString());
        var second = Scheduler.Spawn(ReadOnce(), "second reader");
        error = Assert.Throws<InvalidOperationException>(() => second.Wait(Timeout));
        Assert.Contains("'second reader'", error.Message, StringComparison.Ordinal);
        Assert.Contains("belongs to GreenThread", error.Message, StringComparison.Ordinal);
        Assert.Contains("'first reader'", error.Message, StringComparison.Ordinal);

        IEnumerable<Event> YieldUnarmed()
        {
            yield return write;
        }

        IEnumerable<Event> ReadOnce()
        {
            channel.Writer.TryWrite(1);
            yield return read;
        }
    }

    /// <summary>Makes one of <see cref="ChannelKinds"/>.</summary>
    private static Channel<T> MakeChannel<T>(string kind) => kind switch
    {
        "unbounded" => Channel.CreateUnbounded<T>(),
        "unbounded, single reader" => Channel.CreateUnbounded<T>(new UnboundedChannelOptions { SingleReader = true }),
        "unbounded, synchronous continuations" => Channel.CreateUnbounded<T>(new UnboundedChannelOptions { AllowSynchronousContinuations = true }),
        "bounded 4" => Channel.CreateBounded<T>(4),
        "bounded 1, single reader, synchronous continuations" => Channel.CreateBounded<T>(new BoundedChannelOptions(1) { SingleReader = true, AllowSynchronousContinuations = true }),
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "not a channel kind"),
    };
}
