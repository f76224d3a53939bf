using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;
using ThreadIterators.Supervision;

namespace ThreadIterators.Tests;

/// <summary>
/// Children for supervisor tests: each waits on its own inbox (which outlives it, so its next start reads it too)
/// for an order, and logs its starts and ends, so a test checks the exact order a supervisor started and shut them down.
/// </summary>
internal sealed class Pupils
{
    private readonly ConcurrentDictionary<string, Mailbox<string>> _inboxes = new();

    private int _restarts;

    /// <summary>
    /// "start x" (the supervisor called x's factory, on its own thread, so these are in start order), "canceled x" (it
    /// saw its token and left), "end x" (its finally block), in the order they happened.
    /// </summary>
    internal ConcurrentQueue<string> Log { get; } = new();

    /// <summary>
    /// Restarts made by the supervisors <see cref="Supervise"/> made, counted by their <see cref="Supervisor.Restarted"/>
    /// event, which comes once the restarted children have started (their factories have run, so "start" is logged).
    /// </summary>
    internal int Restarts => Volatile.Read(ref _restarts);

    /// <summary>A supervisor whose restarts <see cref="Restarts"/> counts.</summary>
    internal Supervisor Supervise(SupervisorOptions options, params ChildSpec[] children)
    {
        var supervisor = new Supervisor(options, children);
        supervisor.Restarted += (_, _) => Interlocked.Increment(ref _restarts);
        return supervisor;
    }

    /// <summary>A spec of a child that ends by itself when its token is canceled.</summary>
    internal ChildSpec Spec(string id, RestartType restart = RestartType.Permanent, bool significant = false) =>
        new(id, stop => Started(id, Body(id, heedsToken: true, stop))) { Restart = restart, Significant = significant };

    /// <summary>A spec of a child that takes a token and ignores it, so only the stop after its grace ends it.</summary>
    internal ChildSpec Deaf(string id, TimeSpan grace) => new(id, stop => Started(id, Body(id, heedsToken: false, stop))) { Shutdown = grace };

    /// <summary>A spec of a child whose body takes no token.</summary>
    internal ChildSpec Plain(string id) => new(id, () => Started(id, Body(id, heedsToken: false, CancellationToken.None)));

    /// <summary>Whether each of the children named is running and waits for an order: started, not merely spawned.</summary>
    internal bool Waiting(params string[] ids) => ids.All(id => Inbox(id).IsReceiverParked);

    /// <summary>Tells child <paramref name="id"/> to throw.</summary>
    internal void Crash(string id) => Inbox(id).Send("crash");

    /// <summary>Tells child <paramref name="id"/> to return.</summary>
    internal void Complete(string id) => Inbox(id).Send("complete");

    /// <summary>The log without the starts of the children's first runs, as a list.</summary>
    internal List<string> Since(int count) => Log.Skip(count).ToList();

    internal Mailbox<string> Inbox(string id) => _inboxes.GetOrAdd(id, static key => new Mailbox<string>($"inbox of {key}") { OutlivesReceiver = true });

    private IEnumerable<Event> Started(string id, IEnumerable<Event> body)
    {
        Log.Enqueue($"start {id}");
        return body;
    }

    private IEnumerable<Event> Body(string id, bool heedsToken, CancellationToken stop)
    {
        var inbox = Inbox(id);
        var choice = heedsToken ? new Choice(inbox.Recv(), Event.WhenCanceled(stop)) : new Choice(inbox.Recv());
        try
        {
            while (true)
            {
                yield return choice;
                if (choice.Index == 1)
                {
                    Log.Enqueue($"canceled {id}");
                    yield break;
                }

                switch (inbox.Recv().Value)
                {
                    case "crash":
                        throw new InvalidOperationException($"{id} crashed");
                    case "complete":
                        yield break;
                }
            }
        }
        finally
        {
            Log.Enqueue($"end {id}");
        }
    }
}
