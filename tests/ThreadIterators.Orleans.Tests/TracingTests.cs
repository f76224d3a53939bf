using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using OpenTelemetry;
using OpenTelemetry.Trace;
using ThreadIterators.Tests;

namespace ThreadIterators.Orleans.Tests;

/// <summary>
/// A trace across silos: a message sent inside a trace on one silo reaches a green thread on the other in the same
/// trace, through the transport's send and receive spans; and a traced message that is refused comes back as the
/// sender sent it.
/// </summary>
[Collection(nameof(SharedCluster))]
public sealed class TracingTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    private static readonly ActivitySource s_app = new("ThreadIterators.Orleans.Tests.App");

    [Fact]
    public async Task AMessageSentInATrace_ReachesAGreenThreadOnTheOtherSilo_InTheSameTrace()
    {
        var exported = new SpanList();
        using var provider = Collect(exported);
        var seen = new TaskCompletionSource<(ActivityTraceId Trace, string? Name)>(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Receiver(Mailbox<string> inbox)
        {
            var message = inbox.Recv();
            yield return message;
            seen.TrySetResult((Activity.Current?.TraceId ?? default, Activity.Current?.DisplayName));
        }

        var process = await fixture.Second.SpawnAsync<string>($"traced/{Guid.NewGuid():N}", Receiver);
        ActivityContext request;
        using (var activity = s_app.StartActivity("request"))
        {
            request = activity!.Context;
            fixture.First.Get<string>(process.Name).Send("hello");
        }

        var (trace, current) = await seen.Task.WaitAsync(Generous);
        Assert.Equal(request.TraceId, trace);
        Assert.StartsWith("receive", current, StringComparison.Ordinal);

        // The inbox's receive span ends as the thread ends, after the thread's end span: all five are then exported.
        Assert.True(
            SpinWait.SpinUntil(() => Spans(exported, request.TraceId).Count(a => a.Source.Name == "ThreadIterators") >= 5, Generous),
            "The spans were not all exported.");
        var spans = Spans(exported, request.TraceId);
        var send = Assert.Single(spans, a => a.DisplayName == "send traced");
        Assert.Equal(ActivityKind.Producer, send.Kind);
        Assert.Equal(request.SpanId, send.ParentSpanId);
        Assert.Equal(process.Name, send.GetTagItem("messaging.destination.name"));
        var carried = Assert.Single(spans, a => a.DisplayName == "receive traced");
        Assert.Equal(ActivityKind.Consumer, carried.Kind);
        Assert.Equal(send.SpanId, carried.ParentSpanId);
        Assert.Equal(send.SpanId, Assert.Single(carried.Links).Context.SpanId);
        var inboxSend = Assert.Single(spans, a => a.Kind == ActivityKind.Producer && a.ParentSpanId == carried.SpanId);
        var inboxReceive = Assert.Single(spans, a => a.Kind == ActivityKind.Consumer && a.ParentSpanId == inboxSend.SpanId);
        Assert.Equal(current, inboxReceive.DisplayName);
    }

    [Fact]
    public async Task ATracedMessageOfAnotherType_IsADeadLetter_AsItsSenderSentIt()
    {
        var exported = new SpanList();
        using var provider = Collect(exported);
        var name = $"count/{Guid.NewGuid():N}";
        fixture.Second.Get<long>(name).Send(1);
        var trace = default(ActivityTraceId);
        var letter = await DeadLetters.FirstTo<string>(fixture.First, name, () =>
        {
            using var request = s_app.StartActivity("request");
            trace = request!.TraceId;
            fixture.First.Get<string>(name).Send("not a number");
        }, Generous);

        // It went with its trace: the send's span names the process.
        Assert.Contains(Spans(exported, trace), a => a.DisplayName == "send count" && (string?)a.GetTagItem("messaging.destination.name") == name);
        Assert.Equal("not a number", letter.Message);
        Assert.Equal(DeadLetterReason.Undeliverable, letter.Reason);

        fixture.Second.Get<long>(name).Send(-1);
        var record = ClusterFixture.Counted.GetOrAdd(name, _ => new CountedProcess());
        await record.Ended.Task.WaitAsync(Generous);
        Assert.Equal([1L], record.Messages.ToArray());
    }

    /// <summary>An application's tracer: the library's spans and the test's own, sampled and exported into <paramref name="exported"/>.</summary>
    private static TracerProvider Collect(SpanList exported) =>
        Sdk.CreateTracerProviderBuilder()
            .AddSource("ThreadIterators", s_app.Name)
            .SetSampler(new AlwaysOnSampler())
            .AddInMemoryExporter(exported)
            .Build();

    private static List<Activity> Spans(SpanList exported, ActivityTraceId trace) => exported.Snapshot().Where(a => a.TraceId == trace).ToList();
}
