using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// The latency run on green threads: a hub and its clients on mailboxes, a heartbeat yielding
/// <see cref="Event.Sleep(TimeSpan)"/>, and completers woken through <see cref="ICompletionPort"/>s.
/// </summary>
internal sealed class GreenLatencyLoad : ILatencyLoad
{
    /// <summary>The message that ends the hub, or a client or completer.</summary>
    private const int Stop = -1;

    private readonly Scheduler _scheduler;

    private readonly LatencyOptions _options;

    private readonly LatencyProbe _probe;

    private readonly Mailbox<int> _hub = new("hub");

    private readonly Mailbox<int>[] _clients;

    private readonly ICompletionPort[] _ports;

    public GreenLatencyLoad(Scheduler scheduler, LatencyOptions options, LatencyProbe probe)
    {
        _scheduler = scheduler;
        _options = options;
        _probe = probe;
        _clients = new Mailbox<int>[options.Clients];
        for (var i = 0; i < _clients.Length; i++)
        {
            _clients[i] = new Mailbox<int>();
        }

        _ports = new ICompletionPort[options.Completers];
        for (var i = 0; i < _ports.Length; i++)
        {
            _ports[i] = options.ChannelCompletions ? new ChannelCompletionPort() : new TaskCompletionPort();
        }
    }

    /// <inheritdoc/>
    public void Start()
    {
        _scheduler.Spawn(Heartbeat(_options.Heartbeat, _probe), "heartbeat");
        for (var i = 0; i < _ports.Length; i++)
        {
            _scheduler.Spawn(Completer(_ports[i], _probe.Completions[i]));
        }

        _scheduler.Spawn(Hub(_hub, _clients, _options.Fanout, _probe), "hub");
        for (var i = 0; i < _clients.Length; i++)
        {
            _scheduler.Spawn(Client(i, _clients[i], _hub, _options.Fanout, _probe));
        }
    }

    /// <inheritdoc/>
    public void Complete(int completer, long sentAt) => _ports[completer].Complete(sentAt);

    /// <inheritdoc/>
    public bool End(TimeSpan timeout)
    {
        foreach (var port in _ports)
        {
            port.Complete(Stop);
        }

        _hub.Send(Stop);
        return _scheduler.WaitForAll(timeout);
    }

    /// <summary>Sleeps for <paramref name="period"/> again and again, recording how much longer than that each sleep took.</summary>
    private static IEnumerable<Event> Heartbeat(TimeSpan period, LatencyProbe probe)
    {
        var sleep = Event.Sleep(period);
        var periodTicks = LatencyRun.ToStopwatchTicks(period);
        while (!probe.Stopping)
        {
            var start = Stopwatch.GetTimestamp();
            yield return sleep;
            probe.Heartbeat.Add(start, Stopwatch.GetTimestamp() - start - periodTicks);
        }
    }

    /// <summary>Waits for outside completions and records how long after its timestamp each one ran.</summary>
    private static IEnumerable<Event> Completer(ICompletionPort port, LatencySamples samples)
    {
        while (true)
        {
            yield return port.Next();
            var sentAt = port.Value;
            if (sentAt == Stop)
            {
                yield break;
            }

            samples.Add(sentAt, Stopwatch.GetTimestamp() - sentAt);
        }
    }

    /// <summary>Forwards every message to the next <paramref name="fanout"/> clients in rotation; on stop, ends every client.</summary>
    private static IEnumerable<Event> Hub(Mailbox<int> inbox, Mailbox<int>[] clients, int fanout, LatencyProbe probe)
    {
        var receive = inbox.Recv();
        var next = 0;
        while (true)
        {
            yield return receive;
            if (receive.Value == Stop || probe.Stopping)
            {
                foreach (var client in clients)
                {
                    client.Send(Stop);
                }

                yield break;
            }

            for (var i = 0; i < fanout; i++)
            {
                clients[next].Send(receive.Value);
                next = next + 1 == clients.Length ? 0 : next + 1;
            }
        }
    }

    /// <summary>Sends one message to the hub, then another each time it has received <paramref name="fanout"/> of the hub's.</summary>
    private static IEnumerable<Event> Client(int id, Mailbox<int> inbox, Mailbox<int> hub, int fanout, LatencyProbe probe)
    {
        var receive = inbox.Recv();
        var received = 0;
        hub.Send(id);
        while (true)
        {
            yield return receive;
            if (receive.Value == Stop)
            {
                yield break;
            }

            probe.Delivered(id);
            if (++received == fanout)
            {
                received = 0;
                hub.Send(id);
            }
        }
    }
}
