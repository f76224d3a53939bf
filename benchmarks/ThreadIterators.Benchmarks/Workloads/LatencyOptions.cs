using System;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>The sizes of one latency run (see <see cref="LatencyRun"/>).</summary>
/// <param name="Clients">Client threads of the broadcast hub, each with its own mailbox.</param>
/// <param name="Fanout">
/// Clients the hub forwards each message to, taken in rotation (all of them when it equals <paramref name="Clients"/>).
/// A client sends its next message to the hub after it has received this many, so the messages in flight stay at
/// about <paramref name="Clients"/> times this many, however the threads are scheduled.
/// </param>
/// <param name="Work">Xorshift steps each client computes per message it receives (<see cref="LatencyWork"/>), standing in for handling it.</param>
/// <param name="Completers">Parked threads that outside completions are sent to, in rotation.</param>
/// <param name="Senders">Plain OS threads that send the outside completions, each about once a millisecond.</param>
/// <param name="Heartbeat">How long the heartbeat sleeps each time.</param>
/// <param name="WarmUp">How long the load runs before the measured window, unmeasured.</param>
/// <param name="Window">How long the measured window lasts.</param>
/// <param name="ChannelCompletions">
/// Whether the green completers wait on a channel read (<see cref="ChannelCompletionPort"/>, whose continuations the
/// channel runs on the thread pool) rather than on a task the OS thread completes (<see cref="TaskCompletionPort"/>,
/// whose continuation runs on that OS thread). The async/await completers always read channels.
/// </param>
internal sealed record LatencyOptions(int Clients, int Fanout, int Work, int Completers, int Senders, TimeSpan Heartbeat, TimeSpan WarmUp, TimeSpan Window, bool ChannelCompletions = false)
{
    /// <summary>
    /// Gets the defaults: 1,000 clients with a full broadcast and 50 steps of work per message, 16 completers fed by 2
    /// OS threads, a 10 ms heartbeat, 1 s of warm-up and 5 s measured.
    /// </summary>
    /// <remarks>
    /// Without work the clients drain the hub's broadcasts faster than the one hub thread sends them, so on 2 workers
    /// the worker that is not running the hub keeps running out of local threads and then takes the inject queue's at
    /// once: nothing keeps it busy. With 50 steps (about 150 ns here) the clients are the bottleneck and every
    /// worker's run queue stays full, the case the inject interval is about.
    /// </remarks>
    public static LatencyOptions Default { get; } = new(
        Clients: 1_000,
        Fanout: 1_000,
        Work: 50,
        Completers: 16,
        Senders: 2,
        Heartbeat: TimeSpan.FromMilliseconds(10),
        WarmUp: TimeSpan.FromSeconds(1),
        Window: TimeSpan.FromSeconds(5));

    /// <summary>Gets the sizes as text, for reports.</summary>
    public string Describe() => FormattableString.Invariant(
        $"clients={Clients} fanout={Fanout} work={Work} completers={Completers} senders={Senders} heartbeat_ms={Heartbeat.TotalMilliseconds} warmup_ms={WarmUp.TotalMilliseconds} seconds={Window.TotalSeconds} completion={(ChannelCompletions ? "channel" : "task")}");
}
