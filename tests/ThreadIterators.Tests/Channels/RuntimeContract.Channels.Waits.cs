using System.Collections.Generic;
using System.Linq;
using System.Threading.Channels;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Channel events under the other wait features, on every configuration: a timeout (on a fake clock) reads or writes
/// nothing, and a stop while parked on a channel withdraws the wait without reading or writing.
/// </summary>
public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(Arrival.JustBefore)]
    [InlineData(Arrival.AtTheDeadline)]
    [InlineData(Arrival.JustAfter)]
    [InlineData(Arrival.Racing)]
    public void Timeout_ChannelRead_EveryItemReadOnce_InOrder_NoneTakenByATimeout(Arrival arrival)
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var channel = Channel.CreateUnbounded<int>();
        var read = channel.Reader.CreateReadEvent();
        var timed = read.WithTimeout(TimedWait);
        var log = RunDeadlineRounds(scheduler, clock, arrival, timed, prepare: null, arrive: item => Assert.True(channel.Writer.TryWrite(item)), take: e => e.Value);

        Assert.Equal(Enumerable.Range(0, TimeoutRounds), log.Where(v => v >= 0));
        Assert.False(channel.Reader.TryRead(out var left), $"item {left} was left in the channel");
    }

    [Theory]
    [InlineData(Arrival.JustBefore)]
    [InlineData(Arrival.AtTheDeadline)]
    [InlineData(Arrival.JustAfter)]
    [InlineData(Arrival.Racing)]
    public void Timeout_ChannelWrite_ATimedOutWriteWritesNothing_EveryItemWrittenOnce_InOrder(Arrival arrival)
    {
        // A full channel of one slot: each write waits for the test to read an item, which is the arrival of room.
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        const int Filler = -100;
        var channel = Channel.CreateBounded<int>(1);
        Assert.True(channel.Writer.TryWrite(Filler));
        var taken = new List<int>();
        var written = 0;
        var write = channel.Writer.CreateWriteEvent();
        var timed = write.WithTimeout(TimedWait);
        var log = RunDeadlineRounds(
            scheduler,
            clock,
            arrival,
            timed,
            prepare: round => write.For(round),
            arrive: _ =>
            {
                Assert.True(channel.Reader.TryRead(out var item), "the full channel was empty: a timed-out write wrote its item");
                taken.Add(item);
            },
            take: e => e.IsWritten ? written++ : -1000);

        Assert.True(channel.Reader.TryRead(out var last));
        taken.Add(last);
        Assert.Equal(Enumerable.Range(0, TimeoutRounds), log.Where(v => v >= 0));
        Assert.Equal(new[] { Filler }.Concat(Enumerable.Range(0, TimeoutRounds)), taken);
        Assert.False(channel.Reader.TryRead(out _), "a timed-out write wrote its item");
    }

    [Fact]
    public void Stop_ParkedOnChannelRead_ReadsNothing_AndTheItemWrittenAfterStaysForTheNextReader()
    {
        var channel = Channel.CreateUnbounded<int>();
        var read = channel.Reader.CreateReadEvent();
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [read], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.IsWaiting(read), "its channel read");
        Assert.False(Probe.IsWaiting(read));

        Assert.True(channel.Writer.TryWrite(7));
        Assert.Equal(1, channel.Reader.Count);
        var next = channel.Reader.CreateReadEvent();
        var taken = 0;
        Run(ReadOne(), "next reader");
        Assert.Equal(7, taken);

        IEnumerable<Event> ReadOne()
        {
            yield return next;
            taken = next.Value;
        }
    }

    [Fact]
    public void Stop_ParkedOnChannelWrite_WritesNothing_AndHoldsNoRoom()
    {
        var channel = Channel.CreateBounded<int>(1);
        Assert.True(channel.Writer.TryWrite(1));
        var write = channel.Writer.CreateWriteEvent();
        var record = new StopRecord();
        var victim = Scheduler.Spawn(Guarded(() => [write.For(2)], record), "victim");

        StopWhileParked(Scheduler, victim, record, () => Probe.IsWaiting(write), "its channel write");

        Assert.True(channel.Reader.TryRead(out var first));
        Assert.Equal(1, first);
        Assert.False(channel.Reader.TryRead(out var second), $"the stopped write wrote {second}");
        Assert.True(channel.Writer.TryWrite(3), "the stopped write holds the room");
    }
}
