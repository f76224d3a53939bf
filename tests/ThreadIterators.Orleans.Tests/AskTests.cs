using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans.Tests;

/// <summary>Asks across silos: answers, failures, timeouts and late answers, and a process gone with asks waiting.</summary>
[Collection(nameof(SharedCluster))]
public sealed class AskTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AGreenThreadAsksAProcessOnAnotherSilo_ManyTimes_AndEachAnswerComesBackToItsAsk()
    {
        var name = $"double/{Guid.NewGuid():N}";
        var answers = new List<long>();
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var target = fixture.First.Get<DoubleRequest>(name);

        // Started on demand by a first ask from the second silo, so it runs there and the asks below cross.
        Assert.Equal(0L, await fixture.Second.Get<DoubleRequest>(name).AskAsync<long>(reply => new DoubleRequest(0, reply), Generous).WaitAsync(Generous));
        IEnumerable<Event> Asker()
        {
            for (long i = 0; i < 200; i++)
            {
                var ask = target.Ask<long>(reply => new DoubleRequest(i, reply), Generous);
                yield return ask;
                answers.Add(ask.Value);
            }

            done.TrySetResult();
        }

        fixture.First.Scheduler.Spawn(Asker(), "asker");
        await done.Task.WaitAsync(Generous);
        Assert.Equal(Enumerable.Range(0, 200).Select(i => 2L * i), answers);
        await LifetimeTests.WaitUntil(() => fixture.First.Node().Asks.Count == 0);
    }

    [Fact]
    public async Task AnAskFromAsyncCode_IsAnswered_AndAFailureComesBackAsARemoteProcessException()
    {
        var process = await fixture.Second.SpawnAsync<DoubleRequest>($"double/{Guid.NewGuid():N}", inbox => ClusterFixture.Doubler("", inbox));
        var target = fixture.First.Get<DoubleRequest>(process.Name);

        Assert.Equal(42L, await target.AskAsync<long>(reply => new DoubleRequest(21, reply), Generous).WaitAsync(Generous));
        var failure = await Assert.ThrowsAsync<RemoteProcessException>(() => target.AskAsync<long>(reply => new DoubleRequest(-1, reply), Generous).WaitAsync(Generous));
        Assert.Equal(typeof(ArgumentOutOfRangeException).FullName, failure.RemoteType);
        Assert.Contains("negative numbers are not doubled", failure.Message, StringComparison.Ordinal);
        Assert.Equal(process.Name, failure.Process);
    }

    [Fact]
    public async Task AnAskThatTimesOut_FailsWithATimeout_AndTheLateAnswerIsADeadLetterOnTheAskersSilo()
    {
        var requests = new ConcurrentQueue<DoubleRequest>();
        var held = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new Mailbox<int>();
        IEnumerable<Event> Slow(Mailbox<DoubleRequest> inbox)
        {
            yield return inbox.Recv();
            var request = inbox.Recv().Value;
            held.TrySetResult();
            yield return release.Recv();
            request.Reply.Reply(request.Value * 2);
        }

        var process = await fixture.Second.SpawnAsync<DoubleRequest>($"slow/{Guid.NewGuid():N}", Slow);
        var late = new TaskCompletionSource<DeadLetterEventArgs>(TaskCreationOptions.RunContinuationsAsynchronously);
        void OnDeadLetter(object? sender, DeadLetterEventArgs args)
        {
            if (args.Reason == DeadLetterReason.LateReply && Equals(args.Message, 14L))
            {
                late.TrySetResult(args);
            }
        }

        fixture.First.Scheduler.DeadLetter += OnDeadLetter;
        try
        {
            var ask = fixture.First.Get<DoubleRequest>(process.Name).AskAsync<long>(reply => new DoubleRequest(7, reply), TimeSpan.FromMilliseconds(200));
            await held.Task.WaitAsync(Generous);
            await Assert.ThrowsAsync<TimeoutException>(() => ask.WaitAsync(Generous));
            release.Send(0);
            await late.Task.WaitAsync(Generous);
        }
        finally
        {
            fixture.First.Scheduler.DeadLetter -= OnDeadLetter;
        }
    }

    [Fact]
    public async Task AProcessThatEndsWithAsksQueued_FailsThemAtOnce_WithProcessEnded()
    {
        var queued = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Hoarder(Mailbox<object> inbox)
        {
            // Keeps requests unanswered until told to end; then ends with them unanswered.
            var kept = 0;
            while (true)
            {
                yield return inbox.Recv();
                if (inbox.Recv().Value is "end")
                {
                    yield break;
                }

                if (++kept == 3)
                {
                    queued.TrySetResult();
                }
            }
        }

        var process = await fixture.Second.SpawnAsync<object>($"hoarder/{Guid.NewGuid():N}", Hoarder);
        var target = fixture.First.Get<object>(process.Name);
        var asks = Enumerable.Range(0, 3).Select(i => target.AskAsync<long>(reply => new DoubleRequest(i, reply), Generous)).ToList();
        await queued.Task.WaitAsync(Generous);
        target.Send("end");
        foreach (var ask in asks)
        {
            var ended = await Assert.ThrowsAsync<ProcessEndedException>(() => ask.WaitAsync(Generous));
            Assert.Equal(ProcessExitReason.Normal, ended.Reason);
            Assert.Equal(process.Name, ended.Process);
        }
    }

    [Fact]
    public async Task AnAskOfAKindNotRunning_StartsItsProcess_AndIsAnswered()
    {
        // The asker's monitor first hears that no process holds the name: the request itself starts one.
        var target = fixture.First.Get<DoubleRequest>($"double/{Guid.NewGuid():N}");
        Assert.Equal(10L, await target.AskAsync<long>(reply => new DoubleRequest(5, reply), Generous).WaitAsync(Generous));
        Assert.Equal(12L, await target.AskAsync<long>(reply => new DoubleRequest(6, reply), Generous).WaitAsync(Generous));
    }

    [Fact]
    public async Task AnAskOfANameNoProcessHoldsAndNoKindIsRegisteredFor_FailsWithProcessEnded_NoProcess()
    {
        var target = fixture.First.Get<DoubleRequest>($"nobody/{Guid.NewGuid():N}");
        var ended = await Assert.ThrowsAsync<ProcessEndedException>(() => target.AskAsync<long>(reply => new DoubleRequest(1, reply), Generous).WaitAsync(Generous));
        Assert.Equal(ProcessExitReason.NoProcess, ended.Reason);
    }
}
