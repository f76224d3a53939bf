using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The <c>ThreadIterators</c> activity source, and the steps by which a trace follows messages through green threads.
/// </summary>
/// <remarks>
/// <para>
/// <see cref="Activity.Current"/> is an async-local value of the OS thread, and a worker runs many green threads in
/// turn, so it is kept per green thread (<see cref="GreenThread.Activity"/>):
/// </para>
/// <list type="number">
/// <item>A turn starts: the thread's own activity, or none, becomes the worker's current (<see cref="EnterTurn"/>).</item>
/// <item>The thread yields an event and is about to park on it, or gives up its turn: its current activity is kept
/// (<see cref="Keep"/>), before the park, since once parked the thread may be resumed on another worker at once.</item>
/// <item>The next turn on the worker, of whichever thread, replaces it (step 1), so no other thread sees it. Between
/// turns a worker runs no code of the application's, so nothing sees what the last turn left; a driven run gives its
/// driving thread its own activity back at its end (<c>Worker.RunDrivenHere</c>). Clearing it at each turn's end as
/// well cost ThreadRing about 1.5% more (three checks a turn instead of two: 1.042 against 1.027 of the commit before
/// tracing, medians of six alternating rounds), for nothing that could see the difference.</item>
/// </list>
/// <para>
/// A message carries its sender's context, while this source has a listener and the sender has a current activity:
/// </para>
/// <list type="number">
/// <item>The send starts and stops a PRODUCER span <c>send {mailbox}</c> under the sender's current activity
/// (<see cref="Sending"/>), and the message's slot keeps that span (or, if the listener did not sample it, the
/// sender's activity): <c>MailboxSegment.Traces</c>, written before the slot is published with
/// <c>MailboxSegment.TracedBit</c> in its sequence. The receiver's plain take misses such a slot, and its slow path
/// (<c>Mailbox.WaitForMessage</c>) takes the trace and receives it before the take goes on as any other.</item>
/// <item>The receiving green thread, taking the message, starts a CONSUMER span <c>receive {mailbox}</c>, linked to the
/// sender's span, and a child of the thread's own current activity, or, having none, of the sender's span
/// (<see cref="Received"/>). It stays the thread's current activity until the thread next waits for a message
/// (<see cref="IMessageWait"/>, in step 2), takes another, or ends, so what the thread does with the message
/// (its sends and asks, other libraries' spans) is its child, and the time it then waits idle is not. A receive outside a green thread's turn
/// (async code reading through a channel reader) records the span and stops it at once.</item>
/// </list>
/// <para>
/// A library span is made only inside a trace: where the code that sends, spawns or ends has a current activity. A
/// send outside any trace, as in a benchmark's ring, makes none even while a listener listens.
/// </para>
/// <para>
/// With no activity anywhere in the process none of this runs: <see cref="Seen"/> stays false until an activity
/// first becomes current on some thread (told by <see cref="Activity.CurrentChanged"/>, watched from the first
/// scheduler's construction until then), and every step above is behind it. Workers and the library's other OS
/// threads start without the creator's execution context, so they hold no activity of their own.
/// </para>
/// </remarks>
internal static class Tracing
{
    /// <summary>The activity source's name; also the meter's and the event source's.</summary>
    internal const string SourceName = "ThreadIterators";

    /// <summary>The <c>messaging.system</c> of the library's spans.</summary>
    private const string System = "threaditerators";

    /// <summary>The activity source.</summary>
    internal static readonly ActivitySource Source = CreateSource();

    private static readonly EventHandler<ActivityChangedEventArgs> s_watch = OnCurrentChanged;

    /// <summary>Whether an activity has been current on any OS thread since the first scheduler was made; never reset.</summary>
    private static bool s_seen;

    private static int s_watching;

    /// <summary>
    /// Gets a value indicating whether an activity has been current anywhere in the process since the first scheduler
    /// was made: the one read the hop pays for tracing while nobody traces.
    /// </summary>
    internal static bool Seen
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => s_seen;
    }

    /// <summary>Starts watching for the first current activity; the first scheduler's construction, and a no-op afterwards.</summary>
    internal static void Watch()
    {
        if (Volatile.Read(ref s_watching) != 0 || Interlocked.Exchange(ref s_watching, 1) != 0)
        {
            return;
        }

        Activity.CurrentChanged += s_watch;

        // One made current before the watch began, on the thread that makes the scheduler (a host's start, a test).
        if (Activity.Current is not null)
        {
            See();
        }
    }

    /// <summary>
    /// Reads <see cref="Activity.Current"/> once at a worker's start: the first read on an OS thread allocates (136
    /// bytes, measured), and would otherwise fall in the first turn after an activity was first seen, where the turn's
    /// waits allocate nothing.
    /// </summary>
    internal static void PrepareThread() => _ = Activity.Current;

    /// <summary>
    /// Step 1: a turn starts; the thread's own activity becomes current, or none, replacing what the worker's last turn
    /// left. The worker, in the thread's turn.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static void EnterTurn(GreenThread thread)
    {
        // A kept activity stopped since (a request that ended while the thread waited) cannot be made current; its
        // nearest running parent stands in, or none.
        var kept = thread.Activity;
        while (kept is { IsStopped: true })
        {
            kept = kept.Parent;
        }

        if (Activity.Current != kept)
        {
            Activity.Current = kept;
        }
    }

    /// <summary>
    /// Step 2: keeps the thread's current activity before it parks on <paramref name="next"/> or is queued; ends its
    /// open receive span first if <paramref name="next"/> waits for a message, since the thread is done with the last
    /// one. The worker, in the thread's turn.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static void Keep(GreenThread thread, Event next)
    {
        if (next is IMessageWait { WaitsForMessage: true })
        {
            EndReceive(thread);
        }

        thread.Activity = Activity.Current;
    }

    /// <summary>
    /// A send's PRODUCER span, under the sender's current activity: what the message carries, or null outside a trace
    /// or while nobody listens. The sender, before it appends.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static Activity? Sending(string? destination)
    {
        var current = Activity.Current;
        if (current is null || !Source.HasListeners())
        {
            return null;
        }

        var span = Source.StartActivity(destination is null ? "send" : "send " + destination, ActivityKind.Producer);
        if (span is null)
        {
            // Not sampled: the receive still links to the sender's own span.
            return current;
        }

        if (span.IsAllDataRequested)
        {
            Describe(span, "send", destination);
        }

        span.Stop();
        return span;
    }

    /// <summary>
    /// The receive of a message that carries <paramref name="sent"/>: the CONSUMER span, kept open as the receiving
    /// thread's current activity if <paramref name="inTurn"/> (the receiver's own turn), else stopped at once.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static void Received(string? destination, Activity sent, GreenThread? inTurn)
    {
        if (!Source.HasListeners())
        {
            return;
        }

        if (inTurn is not null)
        {
            // The previous message's span ends where the next message is taken, if the thread did not wait for it.
            EndReceive(inTurn);
        }

        var current = Activity.Current;

        // The thread's own activity, if it has one, parents the receive (Start takes the current one); otherwise the
        // sender's span does, so that the message's trace goes on here.
        var links = new[] { new ActivityLink(sent.Context) };
        var span = Source.StartActivity(
            ActivityKind.Consumer,
            current is null ? sent.Context : default,
            tags: null,
            links,
            name: destination is null ? "receive" : "receive " + destination);
        if (span is null)
        {
            return;
        }

        if (span.IsAllDataRequested)
        {
            Describe(span, "receive", destination);
        }

        if (inTurn is null)
        {
            span.Stop();
        }
        else
        {
            inTurn.OpenReceive = span;
        }
    }

    /// <summary>A spawn's INTERNAL span, inside the spawner's trace. The spawning thread, green or not.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static void Spawned(GreenThread thread)
    {
        if (Activity.Current is null || !Source.HasListeners())
        {
            return;
        }

        using var span = Source.StartActivity("spawn " + (thread.Name ?? "thread"));
        if (span is { IsAllDataRequested: true })
        {
            span.SetTag("threaditerators.thread.id", thread.Id);
            span.SetTag("threaditerators.scheduler", thread.Scheduler.Number);
        }
    }

    /// <summary>
    /// A thread's end: an INTERNAL span with its outcome and fault, under <paramref name="current"/> (the thread's
    /// activity at its end, or, if that ended with the body, the one it had at its last wait), and the end of its open
    /// receive span. The worker in its last turn, or the disposing thread.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static void Ended(GreenThread thread, ExceptionDispatchInfo? fault, Activity? current)
    {
        // A body's own activity, stopped by the using block its end left: the end still belongs to that trace.
        current ??= thread.Activity;
        thread.Activity = null;
        if (current is not null && Source.HasListeners())
        {
            var span = Source.StartActivity(ActivityKind.Internal, current.Context, name: "end " + (thread.Name ?? "thread"));
            if (span is not null)
            {
                if (span.IsAllDataRequested)
                {
                    span.SetTag("threaditerators.thread.id", thread.Id);
                    span.SetTag("threaditerators.scheduler", thread.Scheduler.Number);
                    span.SetTag("threaditerators.thread.outcome", ThreadEnd.OutcomeOf(fault).ToString());
                    if (fault is not null)
                    {
                        Fail(span, fault.SourceException);
                    }
                }

                span.Stop();
            }
        }

        // Whatever was current: the span of the message it took last ends with it.
        EndReceive(thread);
    }

    /// <summary>
    /// An ask's CLIENT span <c>ask {server}</c>, made current so that the request's send is its child: the asking
    /// thread, before it sends. Null outside a trace or while nobody listens; else the caller sends, calls
    /// <see cref="Asked"/>, and stops the span with <see cref="Answered"/> once the ask is decided.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static Activity? Asking(string? server)
    {
        if (Activity.Current is null || !Source.HasListeners())
        {
            return null;
        }

        var span = Source.StartActivity(server is null ? "ask" : "ask " + server, ActivityKind.Client);
        if (span is { IsAllDataRequested: true })
        {
            Describe(span, "send", server);
        }

        return span;
    }

    /// <summary>The request is sent: the asker's own activity is current again, while the ask's span stays open. The asking thread.</summary>
    internal static void Asked(Activity ask) => Activity.Current = ask.Parent;

    /// <summary>Stops an ask's span with its outcome: an error but for a reply. Any thread, once.</summary>
    internal static void Answered(Activity ask, Exception? error)
    {
        if (error is not null && ask.IsAllDataRequested)
        {
            Fail(ask, error);
        }

        StopHere(ask);
    }

    /// <summary>
    /// Stops a span on an OS thread it may not be current on. <see cref="Activity.Stop"/> makes the activity that was
    /// current when the span started current again, on the calling thread, whatever was current there: a reply that
    /// ended an ask would otherwise hand the replying thread the asker's activity.
    /// </summary>
    private static void StopHere(Activity span)
    {
        var current = Activity.Current;
        span.Stop();
        if (Activity.Current != current && current is not { IsStopped: true })
        {
            Activity.Current = current;
        }
    }

    /// <summary>
    /// Stops the thread's open receive span, by reference: a body's own activity around its receive may have made
    /// another current since, or stopped and left none.
    /// </summary>
    private static void EndReceive(GreenThread thread)
    {
        if (thread.OpenReceive is { } open)
        {
            thread.OpenReceive = null;
            if (Activity.Current == open)
            {
                open.Stop();
            }
            else
            {
                StopHere(open);
            }
        }
    }

    private static void Describe(Activity span, string operation, string? destination)
    {
        span.SetTag("messaging.system", System);
        span.SetTag("messaging.operation.type", operation);
        if (destination is null)
        {
            span.SetTag("messaging.destination.anonymous", true);
        }
        else
        {
            span.SetTag("messaging.destination.name", destination);
        }
    }

    /// <summary>Marks a span failed with its exception, as OpenTelemetry records one (an <c>exception</c> event).</summary>
    private static void Fail(Activity span, Exception error)
    {
        span.SetStatus(ActivityStatusCode.Error, error.Message);
        span.AddEvent(new ActivityEvent("exception", tags: new ActivityTagsCollection
        {
            ["exception.type"] = error.GetType().FullName,
            ["exception.message"] = error.Message,
            ["exception.stacktrace"] = error.ToString(),
        }));
    }

    private static void OnCurrentChanged(object? sender, ActivityChangedEventArgs e)
    {
        if (e.Current is not null)
        {
            See();
        }
    }

    private static void See()
    {
        if (!s_seen)
        {
            Volatile.Write(ref s_seen, true);
            Activity.CurrentChanged -= s_watch;
        }
    }

    private static ActivitySource CreateSource()
    {
        var assembly = typeof(Tracing).Assembly;
        var version = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? assembly.GetName().Version?.ToString();
        return new ActivitySource(SourceName, version);
    }
}
