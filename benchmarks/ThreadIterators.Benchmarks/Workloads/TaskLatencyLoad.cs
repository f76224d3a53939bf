using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading.Channels;
using System.Threading.Tasks;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// The latency run on async/await: the same hub, clients and completers as async methods on the thread pool reading
/// unbounded <see cref="Channel{T}"/>s, and a heartbeat awaiting <see cref="Task.Delay(TimeSpan)"/>. Completions are
/// channel writes from the OS threads.
/// </summary>
internal sealed class TaskLatencyLoad : ILatencyLoad
{
    /// <summary>The message that ends the hub, or a client or completer.</summary>
    private const int Stop = -1;

    private readonly LatencyOptions _options;

    private readonly LatencyProbe _probe;

    private readonly Channel<int> _hub = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true });

    private readonly Channel<int>[] _clients;

    private readonly Channel<long>[] _completers;

    private readonly List<Task> _tasks = [];

    public TaskLatencyLoad(LatencyOptions options, LatencyProbe probe)
    {
        _options = options;
        _probe = probe;
        _clients = new Channel<int>[options.Clients];
        for (var i = 0; i < _clients.Length; i++)
        {
            _clients[i] = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        }

        _completers = new Channel<long>[options.Completers];
        for (var i = 0; i < _completers.Length; i++)
        {
            _completers[i] = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true });
        }
    }

    /// <inheritdoc/>
    public void Start()
    {
        _tasks.Add(Task.Run(() => HeartbeatAsync(_options.Heartbeat, _probe)));
        for (var i = 0; i < _completers.Length; i++)
        {
            var (reader, samples) = (_completers[i].Reader, _probe.Completions[i]);
            _tasks.Add(Task.Run(() => CompleterAsync(reader, samples)));
        }

        var writers = Array.ConvertAll(_clients, c => c.Writer);
        _tasks.Add(Task.Run(() => HubAsync(_hub.Reader, writers, _options.Fanout, _probe)));
        for (var i = 0; i < _clients.Length; i++)
        {
            var (id, inbox) = (i, _clients[i].Reader);
            _tasks.Add(Task.Run(() => ClientAsync(id, inbox, _hub.Writer, _options.Fanout, _probe)));
        }
    }

    /// <inheritdoc/>
    public void Complete(int completer, long sentAt) => _completers[completer].Writer.TryWrite(sentAt);

    /// <inheritdoc/>
    public bool End(TimeSpan timeout)
    {
        foreach (var completer in _completers)
        {
            completer.Writer.TryWrite(Stop);
        }

        _hub.Writer.TryWrite(Stop);
        return Task.WaitAll([.. _tasks], timeout);
    }

    private static async Task HeartbeatAsync(TimeSpan period, LatencyProbe probe)
    {
        var periodTicks = LatencyRun.ToStopwatchTicks(period);
        while (!probe.Stopping)
        {
            var start = Stopwatch.GetTimestamp();
            await Task.Delay(period).ConfigureAwait(false);
            probe.Heartbeat.Add(start, Stopwatch.GetTimestamp() - start - periodTicks);
        }
    }

    private static async Task CompleterAsync(ChannelReader<long> inbox, LatencySamples samples)
    {
        while (true)
        {
            var sentAt = await inbox.ReadAsync().ConfigureAwait(false);
            if (sentAt == Stop)
            {
                return;
            }

            samples.Add(sentAt, Stopwatch.GetTimestamp() - sentAt);
        }
    }

    private static async Task HubAsync(ChannelReader<int> inbox, ChannelWriter<int>[] clients, int fanout, LatencyProbe probe)
    {
        var next = 0;
        while (true)
        {
            var message = await inbox.ReadAsync().ConfigureAwait(false);
            if (message == Stop || probe.Stopping)
            {
                foreach (var client in clients)
                {
                    client.TryWrite(Stop);
                }

                return;
            }

            for (var i = 0; i < fanout; i++)
            {
                clients[next].TryWrite(message);
                next = next + 1 == clients.Length ? 0 : next + 1;
            }
        }
    }

    private static async Task ClientAsync(int id, ChannelReader<int> inbox, ChannelWriter<int> hub, int fanout, LatencyProbe probe)
    {
        var received = 0;
        hub.TryWrite(id);
        while (true)
        {
            var message = await inbox.ReadAsync().ConfigureAwait(false);
            if (message == Stop)
            {
                return;
            }

            probe.Delivered(id);
            if (++received == fanout)
            {
                received = 0;
                hub.TryWrite(id);
            }
        }
    }
}
