using System.Diagnostics;
using System.Reflection;

namespace ThreadIterators.Orleans;

/// <summary>
/// A trace across silos, on the core's <c>ThreadIterators</c> activity source (a source of the same name, so an
/// application that listens to the one hears the other):
/// </summary>
/// <remarks>
/// <list type="number">
/// <item>A message that goes through a link, sent inside a trace while the source has a listener, gets a PRODUCER span
/// <c>send {kind}</c> under the sender's current activity, and is carried in a <see cref="TracedMessage"/> with that
/// span's context (<see cref="Wrap"/>). One that goes straight into a local inbox is traced by the core's send.</item>
/// <item>The process's activation, taking it into the inbox, starts a CONSUMER span <c>receive {kind}</c>, a child of
/// the carried context and linked to it, current while the message goes in (<see cref="Receiving"/>); so the inbox's
/// own send span, and the receiving green thread's span after it, are in the sender's trace.</item>
/// <item>A carried message that comes back (refused, undeliverable) is a dead letter as the sender sent it
/// (<see cref="Unwrap"/>).</item>
/// </list>
/// </remarks>
internal static class ClusterTracing
{
    private static readonly ActivitySource s_source = new("ThreadIterators", typeof(ClusterTracing).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion);

    /// <summary>Step 1: the message as it is carried, with its sender's trace if it has one. The sending thread, before it queues the message.</summary>
    internal static object? Wrap(object? message, string process)
    {
        if (Activity.Current is null || !s_source.HasListeners())
        {
            return message;
        }

        var kind = KindOf(process);
        using var span = s_source.StartActivity("send " + kind, ActivityKind.Producer);
        if (span is { IsAllDataRequested: true })
        {
            Describe(span, "send", process);
        }

        var context = span ?? Activity.Current!;
        return context.Id is { } id ? new TracedMessage { Message = message, TraceParent = id, TraceState = context.TraceStateString } : message;
    }

    /// <summary>Step 2: the receive span of a carried message, current until disposed; null for a message without a trace. The activation, as it takes the message.</summary>
    internal static Activity? Receiving(object? message, string process)
    {
        if (message is not TracedMessage traced
            || !s_source.HasListeners()
            || !ActivityContext.TryParse(traced.TraceParent, traced.TraceState, isRemote: true, out var sent))
        {
            return null;
        }

        var span = s_source.StartActivity(ActivityKind.Consumer, sent, tags: null, links: [new ActivityLink(sent)], name: "receive " + KindOf(process));
        if (span is { IsAllDataRequested: true })
        {
            Describe(span, "receive", process);
        }

        return span;
    }

    /// <summary>Step 3, and step 2's message: the message itself, without its trace.</summary>
    internal static object? Unwrap(object? message) => message is TracedMessage traced ? traced.Message : message;

    /// <summary>A span name's destination: the process's kind (what comes before its key), few where keys are many.</summary>
    private static string KindOf(string process) => process.IndexOf('/', System.StringComparison.Ordinal) is > 0 and var slash ? process[..slash] : process;

    private static void Describe(Activity span, string operation, string process)
    {
        span.SetTag("messaging.system", "threaditerators");
        span.SetTag("messaging.operation.type", operation);
        span.SetTag("messaging.destination.name", process);
    }
}
