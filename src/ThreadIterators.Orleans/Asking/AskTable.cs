using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>
/// The asks this silo's threads have made of processes anywhere in the cluster. Any thread.
/// </summary>
/// <remarks>
/// An ask across silos is the core's ask of a local mailbox (<see cref="MailboxAsking"/>), whose server is this
/// table's forwarder thread: the core keeps the asker's wait, its timeout, a stop, and the dead letter of an answer
/// that comes late. The steps, each written once, here or in the type named:
/// <list type="number">
/// <item><b>Ask.</b> <see cref="Ask{T, TReply}"/> makes the answer's handle (<see cref="RemoteReplyTo{T}"/>: the ask's
/// id and this silo's observer), has the user's function build the request around it, and asks the forwarder's
/// mailbox with a <see cref="PendingAsk"/> holding the request and the core's reply slot.</item>
/// <item><b>Forward.</b> The forwarder keeps the pending ask by id (and by its request), sets a monitor on the process
/// (one per process, while asks of it wait), and sends the request through the silo's link to the process, in order
/// with the asker silo's other sends.</item>
/// <item><b>Answer.</b> The answer comes back through the answering silo's link to this silo's observer, in order
/// with that silo's monitor notifications (<see cref="Answered"/>), and goes to the reply slot; an answer for an ask
/// no longer kept is a dead letter, <see cref="DeadLetterReason.LateReply"/>.</item>
/// <item><b>Gone.</b> When the monitor says the process is gone (<see cref="ProcessGone"/>), every ask of it still
/// waiting fails with <see cref="ProcessEndedException"/>. A first answer of no process is expected when the request
/// itself is to start the process (a kind, on demand): the monitor is set again once the link has carried the
/// request, and only a second answer of no process is left to the asks' timeouts, since the process may have answered
/// and ended in between. A request the link could not deliver fails its ask at once
/// (<see cref="RequestUndeliverable"/>).</item>
/// </list>
/// </remarks>
internal sealed class AskTable
{
    private const int PruneFloor = 1024;

    private readonly ProcessNode _node;
    private readonly ConcurrentDictionary<Guid, PendingAsk> _pending = new();
    private readonly ConcurrentDictionary<object, PendingAsk> _byRequest = new(ReferenceEqualityComparer.Instance);
    private readonly Dictionary<string, AskWatch> _watches = new(StringComparer.Ordinal);
    private readonly object _gate = new();
    private readonly CallbackTarget<ProcessDown> _target;
    private Mailbox<PendingAsk>? _requests;
    private int _pruneAt = PruneFloor;

    internal AskTable(ProcessNode node)
    {
        _node = node;
        _target = new CallbackTarget<ProcessDown>(ProcessGone, static () => "the asks waiting across the cluster");
    }

    /// <summary>Gets how many asks are kept, waiting for an answer or for their process's end.</summary>
    internal int Count => _pending.Count;

    /// <summary>Makes an ask for a green thread to yield (step 1).</summary>
    internal AskEvent<TReply> Ask<T, TReply>(ProcessRef<T> target, Func<RemoteReplyTo<TReply>, T> request, TimeSpan timeout)
    {
        var id = Guid.NewGuid();
        var answer = new RemoteReplyTo<TReply>(id, _node.Observer, _node);
        return Requests().Ask((ReplyTo<TReply> reply) => (PendingAsk)new PendingAsk<T, TReply>(id, target, request(answer), reply, _node), timeout);
    }

    /// <summary>Makes an ask for async code (step 1).</summary>
    internal Task<TReply> AskAsync<T, TReply>(ProcessRef<T> target, Func<RemoteReplyTo<TReply>, T> request, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var id = Guid.NewGuid();
        var answer = new RemoteReplyTo<TReply>(id, _node.Observer, _node);
        return Requests().AskAsync((ReplyTo<TReply> reply) => (PendingAsk)new PendingAsk<T, TReply>(id, target, request(answer), reply, _node), timeout, cancellationToken);
    }

    /// <summary>An answer came (step 3).</summary>
    internal void Answered(AskAnswer answer)
    {
        if (!_pending.TryRemove(answer.Ask, out var ask))
        {
            // Answered twice, or after it was dropped for its timeout: late, as the core calls it.
            _node.Scheduler.ReportDeadLetter(answer.FailureType is null ? answer.Value : $"{answer.FailureType}: {answer.FailureMessage}", $"ask {answer.Ask:N}", DeadLetterReason.LateReply);
            return;
        }

        Forget(ask);
        ask.Answer(answer);
    }

    /// <summary>A monitor of a process asked says it is gone (step 4).</summary>
    internal void ProcessGone(ProcessDown down)
    {
        var name = down.Name;
        List<PendingAsk> failed = [];
        ProcessMonitor? fresh = null;
        var rearm = false;
        lock (_gate)
        {
            if (!_watches.TryGetValue(name, out var watch))
            {
                return;
            }

            if (watch.Monitor == down.Monitor)
            {
                watch.Monitor = null;
            }

            if (down.Reason == ProcessExitReason.NoProcess)
            {
                // Expected when the request itself is to start the process: set the monitor again, once, after the
                // requests it watched for have been carried. A second "no process" leaves them to their timeouts: the
                // process may have answered and ended in between.
                rearm = !watch.Rearmed && watch.Monitor is null;
                watch.Rearmed = true;
            }
            else
            {
                // Only the asks this monitor watched for: an ask sent after the end goes to the next process.
                failed = _pending.Values.Where(ask => ask.Process == name && ask.Monitor == down.Monitor).ToList();
                if (watch.Monitor is null && _pending.Values.Any(ask => ask.Process == name && ask.Monitor != down.Monitor))
                {
                    // Asks sent after the end wait for the next process: watched by a monitor of their own.
                    fresh = watch.Monitor = _node.Monitors.Create(name, _target);
                    watch.Rearmed = false;
                    foreach (var ask in _pending.Values.Where(ask => ask.Process == name && ask.Monitor != down.Monitor))
                    {
                        ask.Monitor = fresh;
                    }
                }
            }
        }

        if (fresh is not null)
        {
            _node.Monitors.Start(fresh);
        }

        if (rearm)
        {
            _ = RearmAsync(name, down.Monitor);
        }

        foreach (var ask in failed)
        {
            if (_pending.TryRemove(ask.Id, out _))
            {
                Forget(ask);
                ask.Fail(new ProcessEndedException(name, down.Reason, down.Detail));
            }
        }
    }

    /// <summary>A message a link could not deliver: if it was an ask's request, the ask fails now (step 4).</summary>
    internal void RequestUndeliverable(object? message)
    {
        if (message is null || !_byRequest.TryGetValue(message, out var ask) || !_pending.TryRemove(ask.Id, out _))
        {
            return;
        }

        Forget(ask);
        ask.Fail(new ProcessEndedException(ask.Process, ProcessExitReason.NoProcess, "the request could not be delivered"));
    }

    private Mailbox<PendingAsk> Requests()
    {
        lock (_gate)
        {
            if (_requests is null)
            {
                _requests = new Mailbox<PendingAsk>("asks across the cluster");
                _node.Scheduler.SpawnReceiver(_requests, Forward(_requests), "ask forwarder");
            }

            return _requests;
        }
    }

    /// <summary>The forwarder's body (step 2).</summary>
    private IEnumerable<Event> Forward(Mailbox<PendingAsk> requests)
    {
        var next = requests.Recv();
        while (true)
        {
            yield return next;
            var ask = next.Value;
            if (!ask.IsWaiting)
            {
                // Its timeout passed, or its asker was stopped, while it was queued here: nothing to send.
                continue;
            }

            // Kept, known by its request, and watched before the request goes: an answer, a refusal or the process's
            // end can come as soon as it has gone.
            ask.Prepare();
            ProcessMonitor? monitor;
            lock (_gate)
            {
                _pending[ask.Id] = ask;
                if (ask.Request is { } request)
                {
                    _byRequest[request] = ask;
                }

                monitor = Watch(ask);
            }

            if (monitor is not null)
            {
                _node.Monitors.Start(monitor);
            }

            ask.Send();
            PruneIfDue();
        }
    }

    /// <summary>Counts an ask in its process's watch, and tags it with the watch's monitor; returns a monitor made for it, to start. Under the lock.</summary>
    private ProcessMonitor? Watch(PendingAsk ask)
    {
        if (!_watches.TryGetValue(ask.Process, out var watch))
        {
            _watches[ask.Process] = watch = new AskWatch();
        }

        watch.Pending++;
        ProcessMonitor? made = null;
        if (watch.Monitor is null)
        {
            // A new ask is a new request: watched afresh, whatever an earlier monitor said.
            made = watch.Monitor = _node.Monitors.Create(ask.Process, _target);
            watch.Rearmed = false;
        }

        ask.Monitor = watch.Monitor;
        return made;
    }

    private async Task RearmAsync(string name, ProcessMonitor old)
    {
        List<Task> carried;
        lock (_gate)
        {
            carried = _pending.Values.Where(ask => ask.Process == name && ask.Monitor == old).Select(ask => ask.WhenCarried()).ToList();
        }

        await Task.WhenAll(carried).ConfigureAwait(false);
        ProcessMonitor? fresh = null;
        lock (_gate)
        {
            if (_watches.TryGetValue(name, out var watch) && watch.Pending > 0)
            {
                // A later ask may have set a monitor meanwhile: the asks the old one watched for join it.
                var current = watch.Monitor ??= fresh = _node.Monitors.Create(name, _target);
                foreach (var ask in _pending.Values.Where(ask => ask.Process == name && ask.Monitor == old))
                {
                    ask.Monitor = current;
                }
            }
        }

        if (fresh is not null)
        {
            _node.Monitors.Start(fresh);
        }
    }

    /// <summary>Drops an ask that is answered, failed or abandoned, and its process's watch once no ask of it waits.</summary>
    private void Forget(PendingAsk ask)
    {
        if (ask.Request is { } request)
        {
            _byRequest.TryRemove(request, out _);
        }

        ProcessMonitor? done = null;
        lock (_gate)
        {
            if (_watches.TryGetValue(ask.Process, out var watch) && --watch.Pending <= 0)
            {
                _watches.Remove(ask.Process);
                done = watch.Monitor;
            }
        }

        done?.Remove();
    }

    /// <summary>Drops the asks whose askers stopped waiting (their timeouts passed), once the table has doubled.</summary>
    private void PruneIfDue()
    {
        if (_pending.Count < _pruneAt)
        {
            return;
        }

        foreach (var ask in _pending.Values)
        {
            if (!ask.IsWaiting && _pending.TryRemove(ask.Id, out _))
            {
                Forget(ask);
            }
        }

        _pruneAt = Math.Max(PruneFloor, _pending.Count * 2);
    }
}
