using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using OpenTelemetry;
using OpenTelemetry.Trace;

namespace ThreadIterators.Tests;

/// <summary>
/// The <c>ThreadIterators</c> activity source as an application's OpenTelemetry SDK collects it, under every
/// configuration: one trace from an OS thread's send through two green threads and an ask, parented and linked as
/// OpenTelemetry's messaging conventions say, and no green thread's activity seen by another that shares its worker.
/// </summary>
/// <remarks>
/// The SDK's listener is process-wide, and other tests' schedulers run meanwhile: each test reads only its own trace,
/// and their sends, made outside any activity, make no spans.
/// </remarks>
public sealed class TracingTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    private static readonly ActivitySource s_app = new("ThreadIterators.Tests.App");

    [Theory]
    [MemberData(nameof(EveryConfiguration.WorkersAndPolicies), MemberType = typeof(EveryConfiguration))]
    public void ATrace_GoesFromAnOsThreadsSend_ThroughTwoGreenThreadsAndAnAsk_AndIntoNoOtherThread(int workerCount, SchedulingPolicy policy)
    {
        var exported = new SpanList();
        using var provider = Collect(exported);
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = workerCount, Policy = policy });
        var front = new Mailbox<int>("front");
        var back = new Mailbox<Doubling>("back");
        var frontSaw = new FrontSaw();
        using var frontDone = new ManualResetEventSlim();
        var bystanderLeaks = 0;
        var bystanderTurns = 0;

        scheduler.SpawnReceiver(back, Back(back), "back");
        var bystanderCount = 2 * workerCount;
        scheduler.SpawnReceiver(front, Front(front, back, frontSaw, frontDone, () => Volatile.Read(ref bystanderTurns) >= 10 * bystanderCount), "front");
        var bystanders = Enumerable.Range(0, bystanderCount)
            .Select(i => scheduler.Spawn(Bystander(frontDone, () => Interlocked.Increment(ref bystanderLeaks), () => Interlocked.Increment(ref bystanderTurns)), $"bystander {i}"))
            .ToList();

        ActivityContext request;
        using (var activity = s_app.StartActivity("request"))
        {
            Assert.NotNull(activity);
            request = activity.Context;
            front.Send(21);
        }

        Assert.True(frontDone.Wait(Timeout), "The front thread did not finish.");
        Assert.True(scheduler.WaitForAll(Timeout), "The threads did not end.");
        provider.ForceFlush();

        var spans = exported.Snapshot().Where(a => a.TraceId == request.TraceId).ToList();

        var sendFront = Assert.Single(spans, a => a.DisplayName == "send front");
        Assert.Equal(ActivityKind.Producer, sendFront.Kind);
        Assert.Equal(request.SpanId, sendFront.ParentSpanId);
        Assert.Equal("threaditerators", sendFront.GetTagItem("messaging.system"));
        Assert.Equal("front", sendFront.GetTagItem("messaging.destination.name"));

        var receiveFront = Assert.Single(spans, a => a.DisplayName == "receive front");
        Assert.Equal(ActivityKind.Consumer, receiveFront.Kind);
        Assert.Equal(sendFront.SpanId, receiveFront.ParentSpanId);
        Assert.Equal(sendFront.SpanId, Assert.Single(receiveFront.Links).Context.SpanId);

        var ask = Assert.Single(spans, a => a.DisplayName == "ask back");
        Assert.Equal(ActivityKind.Client, ask.Kind);
        Assert.Equal(receiveFront.SpanId, ask.ParentSpanId);
        Assert.NotEqual(ActivityStatusCode.Error, ask.Status);

        var sendBack = Assert.Single(spans, a => a.DisplayName == "send back");
        Assert.Equal(ask.SpanId, sendBack.ParentSpanId);
        var receiveBack = Assert.Single(spans, a => a.DisplayName == "receive back");
        Assert.Equal(sendBack.SpanId, receiveBack.ParentSpanId);
        Assert.Equal(sendBack.SpanId, Assert.Single(receiveBack.Links).Context.SpanId);

        // The reply decided the ask, which ends after the server took the request.
        Assert.True(ask.StartTimeUtc + ask.Duration >= receiveBack.StartTimeUtc, "The ask ended before its request was received.");

        // Each thread's end is a span under the message it handled last, which that end closes.
        var endBack = Assert.Single(spans, a => a.DisplayName == "end back");
        Assert.Equal(receiveBack.SpanId, endBack.ParentSpanId);
        Assert.Equal("Completed", endBack.GetTagItem("threaditerators.thread.outcome"));
        Assert.Equal(receiveFront.SpanId, Assert.Single(spans, a => a.DisplayName == "end front").ParentSpanId);

        // The front thread's own activity across its waits: the receive's span after the receive, after the ask, and
        // after each of its yields, on whichever worker resumed it.
        Assert.Equal(receiveFront.SpanId, frontSaw.AfterReceive);
        Assert.Equal(receiveFront.SpanId, frontSaw.AfterAsk);
        Assert.Equal(0, frontSaw.LostAfterYield);
        Assert.Equal(42, frontSaw.Answer);

        // No other thread saw it, nor any activity: not the bystanders, which ran meanwhile, on the same workers.
        Assert.True(Volatile.Read(ref bystanderTurns) >= 10 * bystanderCount, "The bystanders did not run while the front thread yielded.");
        Assert.Equal(0, Volatile.Read(ref bystanderLeaks));
        Assert.All(bystanders, b => Assert.Equal(ThreadOutcome.Completed, b.Outcome));

        // Nothing else of the library in this trace: two sends, two receives, the ask and two ends; no bystander's.
        Assert.Equal(7, spans.Count(a => a.Source.Name == "ThreadIterators"));
    }

    [Theory]
    [MemberData(nameof(EveryConfiguration.WorkersAndPolicies), MemberType = typeof(EveryConfiguration))]
    public void AThreadsOwnActivity_IsItsAloneAcrossItsYields_AndItsFaultIsOnItsEndSpan(int workerCount, SchedulingPolicy policy)
    {
        var exported = new SpanList();
        using var provider = Collect(exported);
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = workerCount, Policy = policy });
        scheduler.UnobservedFault += (_, _) => { };
        const int Threads = 8;
        var lost = 0;
        var traces = new ActivityTraceId[Threads];
        var threads = Enumerable.Range(0, Threads)
            .Select(i => scheduler.Spawn(OwnsAnActivity(i, traces, () => Interlocked.Increment(ref lost)), $"owner {i}"))
            .ToList();
        Assert.True(scheduler.WaitForAll(Timeout), "The threads did not end.");
        provider.ForceFlush();

        // Each thread found its own activity, and only its own, after every one of its 50 yields.
        Assert.Equal(0, Volatile.Read(ref lost));
        Assert.Equal(Threads, traces.Distinct().Count());
        var spans = exported.Snapshot().Where(a => traces.Contains(a.TraceId)).ToList();

        for (var i = 0; i < Threads; i++)
        {
            var own = Assert.Single(spans, a => a.TraceId == traces[i] && a.DisplayName == $"work {i}");
            var end = Assert.Single(spans, a => a.TraceId == traces[i] && a.DisplayName == $"end owner {i}");
            Assert.Equal(own.SpanId, end.ParentSpanId);
            if (i % 2 == 0)
            {
                Assert.Equal(ThreadOutcome.Completed, threads[i].Outcome);
                Assert.Equal(ActivityStatusCode.Unset, end.Status);
            }
            else
            {
                Assert.Equal(ThreadOutcome.Faulted, threads[i].Outcome);
                Assert.Equal(ActivityStatusCode.Error, end.Status);
                var exception = Assert.Single(end.Events, e => e.Name == "exception");
                Assert.Contains($"owner {i} fails", exception.Tags.Single(t => t.Key == "exception.message").Value as string, StringComparison.Ordinal);
            }
        }
    }

    [Theory]
    [MemberData(nameof(EveryConfiguration.WorkersAndPolicies), MemberType = typeof(EveryConfiguration))]
    public void AReceiveSpan_EndsWhenItsThreadWaitsForTheNextMessage_NotWhenTheNextArrives(int workerCount, SchedulingPolicy policy)
    {
        var exported = new SpanList();
        using var provider = Collect(exported);
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = workerCount, Policy = policy });
        var inbox = new Mailbox<int>("idle server");
        var current = new List<Activity?>();
        var server = scheduler.SpawnReceiver(inbox, Receives(inbox, 2, current), "idle server");
        ActivityTraceId first;
        using (var activity = s_app.StartActivity("first request"))
        {
            first = activity!.TraceId;
            inbox.Send(1);
        }

        // Exported only once ended: the server took the message, and ended its span as it waited for the next one,
        // which is not sent until then.
        Assert.True(
            SpinWait.SpinUntil(() => exported.Snapshot().Exists(a => a.TraceId == first && a.DisplayName == "receive idle server"), Timeout),
            "The first message's receive span did not end while its thread waited for the next message.");
        using (s_app.StartActivity("second request"))
        {
            inbox.Send(2);
        }

        Assert.True(server.Wait(Timeout), "The server did not end.");
        Assert.Equal(2, current.Count);
        Assert.All(current, a => Assert.Equal("receive idle server", a?.DisplayName));
    }

    [Theory]
    [MemberData(nameof(EveryConfiguration.WorkersAndPolicies), MemberType = typeof(EveryConfiguration))]
    public void AReceiveSpan_UnderTheThreadsOwnActivity_EndsToo_WhenThatActivityEndsFirst(int workerCount, SchedulingPolicy policy)
    {
        var exported = new SpanList();
        using var provider = Collect(exported);
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = workerCount, Policy = policy });
        var inbox = new Mailbox<int>("worked inbox");
        var worker = scheduler.SpawnReceiver(inbox, WorksOnEach(inbox, 3), "worked");
        ActivityTraceId trace;
        using (var request = s_app.StartActivity("requests"))
        {
            trace = request!.TraceId;
            for (var i = 0; i < 3; i++)
            {
                inbox.Send(i);
            }
        }

        Assert.True(worker.Wait(Timeout), "The receiver did not end.");
        provider.ForceFlush();

        // Each receive's span, a child of the thread's own "work" activity, which its using block stopped first: all
        // three ended, none left open.
        var spans = exported.Snapshot();
        var receives = spans.Where(a => a.DisplayName == "receive worked inbox").ToList();
        Assert.Equal(3, receives.Count);
        Assert.All(receives, r => Assert.Contains(spans, w => w.DisplayName == "work" && w.SpanId == r.ParentSpanId));
        Assert.All(receives, r => Assert.Contains(r.Links, l => l.Context.TraceId == trace));
    }

    [Fact]
    public void ASend_OutsideAnyActivity_MakesNoSpan_AndTheMessageCarriesNone()
    {
        var exported = new SpanList();
        using var provider = Collect(exported);
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = 1 });

        // An activity made current once: the library's tracing steps run from here on, and still make nothing here.
        s_app.StartActivity("seen")?.Stop();
        Assert.True(Tracing.Seen);
        var inbox = new Mailbox<int>("untraced inbox");
        var current = new List<Activity?>();
        var receiver = scheduler.SpawnReceiver(inbox, Receives(inbox, 100, current), "untraced receiver");
        for (var i = 0; i < 100; i++)
        {
            inbox.Send(i);
        }

        Assert.True(receiver.Wait(Timeout), "The receiver did not end.");
        provider.ForceFlush();
        Assert.Equal(100, current.Count);
        Assert.All(current, Assert.Null);
        Assert.DoesNotContain(exported.Snapshot(), a => a.DisplayName.Contains("untraced", StringComparison.Ordinal));
    }

    /// <summary>An application's tracer: every span of the library and of the test's own source, sampled and exported into <paramref name="exported"/>.</summary>
    private static TracerProvider Collect(SpanList exported) =>
        Sdk.CreateTracerProviderBuilder()
            .AddSource("ThreadIterators", s_app.Name)
            .SetSampler(new AlwaysOnSampler())
            .AddInMemoryExporter(exported)
            .Build();

    private static IEnumerable<Event> WorksOnEach(Mailbox<int> inbox, int count)
    {
        for (var i = 0; i < count; i++)
        {
            // The thread's own activity around each receive: the receive's span is its child, and the using block
            // stops it, leaving none current, before the next wait.
            using (s_app.StartActivity("work", ActivityKind.Internal, parentContext: default))
            {
                yield return inbox.Recv();
            }
        }
    }

    private static IEnumerable<Event> Receives(Mailbox<int> inbox, int count, List<Activity?> current)
    {
        for (var i = 0; i < count; i++)
        {
            var m = inbox.Recv();
            yield return m;
            current.Add(Activity.Current);
        }
    }

    private static IEnumerable<Event> Front(Mailbox<int> front, Mailbox<Doubling> back, FrontSaw saw, ManualResetEventSlim done, Func<bool> bystandersRan)
    {
        try
        {
            var m = front.Recv();
            yield return m;
            saw.AfterReceive = Activity.Current?.SpanId;
            var ask = back.Ask((ReplyTo<long> reply) => new Doubling(m.Value, reply), Timeout);
            yield return ask;
            saw.AfterAsk = Activity.Current?.SpanId;
            saw.Answer = ask.Value;
            // Yields while the bystanders take turns between its own, on the same workers.
            for (var i = 0; i < 50 || (!bystandersRan() && i < 10_000_000); i++)
            {
                yield return Event.Yield;
                if (Activity.Current?.SpanId != saw.AfterReceive)
                {
                    saw.LostAfterYield++;
                }
            }
        }
        finally
        {
            done.Set();
        }
    }

    private static IEnumerable<Event> Back(Mailbox<Doubling> back)
    {
        var request = back.Recv();
        yield return request;
        request.Value.Reply.Reply(request.Value.N * 2L);
    }

    private static IEnumerable<Event> Bystander(ManualResetEventSlim frontDone, Action leaked, Action turned)
    {
        // Yields until the front thread is done, sharing the workers with it turn after turn.
        for (var i = 0; i < 10_000_000 && !frontDone.IsSet; i++)
        {
            yield return Event.Yield;
            turned();
            if (Activity.Current is not null)
            {
                leaked();
            }
        }
    }

    private static IEnumerable<Event> OwnsAnActivity(int index, ActivityTraceId[] traces, Action lost)
    {
        // A new root for each thread: its own trace.
        using var work = s_app.StartActivity($"work {index}", ActivityKind.Internal, parentContext: default)!;
        traces[index] = work.TraceId;
        for (var i = 0; i < 50; i++)
        {
            yield return Event.Yield;
            if (Activity.Current != work)
            {
                lost();
            }
        }

        if (index % 2 == 1)
        {
            throw new InvalidOperationException($"owner {index} fails");
        }
    }

    private sealed record Doubling(int N, ReplyTo<long> Reply);

    private sealed class FrontSaw
    {
        public ActivitySpanId? AfterReceive { get; set; }

        public ActivitySpanId? AfterAsk { get; set; }

        public int LostAfterYield { get; set; }

        public long Answer { get; set; }
    }
}
