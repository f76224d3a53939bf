using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Hosting;

namespace ThreadIterators.Orleans.Tests;

/// <summary>
/// An Orleans client, outside the silos, with ThreadIterators added: its OS threads and green threads send to the
/// cluster's processes with the guarantees a silo's senders have, ask them and monitor them; it spawns none.
/// </summary>
[Collection(nameof(SharedCluster))]
public sealed class ClientTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AClientsOsThreadAndGreenThread_SendToAProcessOnASilo_EachMessageOnce_InPerSenderOrder()
    {
        const int PerSender = 50_000;
        var next = new long[2];
        var received = 0L;
        var faults = new ConcurrentQueue<string>();
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Sink(Mailbox<long> inbox)
        {
            while (received < 2L * PerSender)
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
        var target = fixture.Client.Get<long>(sink.Name);
        IEnumerable<Event> GreenSender()
        {
            for (long i = 0; i < PerSender; i++)
            {
                target.Send((1L << 32) | i);
                if (i % 256 == 0)
                {
                    yield return Event.Yield;
                }
            }
        }

        var green = fixture.Client.Scheduler.Spawn(GreenSender(), "client sender");
        for (long i = 0; i < PerSender; i++)
        {
            target.Send(i);
        }

        await done.Task.WaitAsync(Generous);
        Assert.True(faults.IsEmpty, string.Join("; ", faults.Take(5)));
        Assert.Equal(2L * PerSender, received);
        await green.AsTask().WaitAsync(Generous);
        Assert.Equal(ThreadOutcome.Completed, green.Outcome);
    }

    [Fact]
    public async Task AClient_AsksAProcessOfAKind_FromAGreenThreadAndFromAsyncCode_AndGetsItsAnswerAndItsFailure()
    {
        var target = fixture.Client.Get<DoubleRequest>($"double/{Guid.NewGuid():N}");
        Assert.Equal(42, await target.AskAsync<long>(reply => new DoubleRequest(21, reply), Generous).WaitAsync(Generous));
        await Assert.ThrowsAsync<RemoteProcessException>(() => target.AskAsync<long>(reply => new DoubleRequest(-1, reply), Generous).WaitAsync(Generous));

        var answer = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Asker()
        {
            var ask = target.Ask<long>(reply => new DoubleRequest(50, reply), Generous);
            yield return ask;
            answer.TrySetResult(ask.Value);
        }

        fixture.Client.Scheduler.Spawn(Asker(), "client asker");
        Assert.Equal(100, await answer.Task.WaitAsync(Generous));
    }

    [Fact]
    public async Task AClient_MonitorsAProcessOnASilo_AndHearsItEndNormally()
    {
        var name = $"mortal/{Guid.NewGuid():N}";
        IEnumerable<Event> EndsWhenTold(Mailbox<int> inbox)
        {
            yield return inbox.Recv();
        }

        await fixture.First.SpawnAsync<int>(name, EndsWhenTold);
        var downs = new Mailbox<ProcessDown>();
        var heard = new TaskCompletionSource<ProcessDown>(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Watcher()
        {
            yield return downs.Recv();
            heard.TrySetResult(downs.Recv().Value);
        }

        fixture.Client.Scheduler.Spawn(Watcher(), "client watcher");
        var target = fixture.Client.Get<int>(name);
        var monitor = target.Monitor(downs);
        await LifetimeTests.WaitUntil(() => monitor.HasFired || fixture.Client.Node().Monitors.HostOf(monitor) is not null);
        Assert.False(monitor.HasFired, "The monitor fired before the process was told to end.");

        target.Send(0);
        var down = await heard.Task.WaitAsync(Generous);
        Assert.Equal(ProcessExitReason.Normal, down.Reason);
        Assert.Equal(name, down.Name);
    }

    [Fact]
    public async Task ASpawnOnAClient_Fails_SayingThatProcessesRunOnSilos()
    {
        var failure = await Assert.ThrowsAsync<InvalidOperationException>(() => fixture.Client.SpawnAsync<int>("on-client", _ => []));
        Assert.Contains("this Orleans client", failure.Message, StringComparison.Ordinal);
        Assert.Contains("run on silos", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AKindRegisteredOnAClient_IsRefused_NamingIt()
    {
        var builder = Host.CreateApplicationBuilder();
        var failure = Assert.Throws<InvalidOperationException>(() => builder.UseOrleansClient(client => client.AddThreadIterators(options => options.AddProcess<int>("worker", (_, inbox) => []))));
        Assert.Contains("worker", failure.Message, StringComparison.Ordinal);
    }
}
