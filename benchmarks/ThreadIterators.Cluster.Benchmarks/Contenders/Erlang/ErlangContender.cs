using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Erlang;

/// <summary>
/// Erlang distribution: two BEAM nodes on loopback (<c>-name ...@127.0.0.1</c>, long names on the loopback address so
/// that no host name is resolved), plain processes, <c>!</c> and <c>receive</c>, the distribution's own TCP
/// transport and external term format. Node 1 is an <c>erl</c> child of this program running
/// <c>benchmarks/erlang/distribution/dist_bench.erl</c> as a command server (<see cref="ErlangCommandNode"/>); it
/// starts node 2 with OTP's <c>peer</c> module. Each workload call is one command, done entirely on the nodes,
/// so the command's own round trip over the pipes is one per call. Every VM flag is the default: a scheduler per
/// core (<see cref="Settings"/> says how many), the default net tick time (60 s), the default distribution buffer.
/// </summary>
internal sealed class ErlangContender() : Contender("Erlang distribution")
{
    /// <summary>Part of every node name, so that two contenders (or a leftover node) never share one.</summary>
    private readonly string _id = Guid.NewGuid().ToString("N")[..12];

    /// <summary>The distribution's shared secret, fresh for each contender.</summary>
    private readonly string _cookie = Guid.NewGuid().ToString("N");

    /// <summary>Where the module is compiled; deleted by <see cref="DisposeAsync"/>.</summary>
    private readonly string _ebin = Path.Combine(Path.GetTempPath(), $"dist-bench-{Guid.NewGuid():N}");

    private string? _erl;
    private ErlangCommandNode? _first;
    private Process? _second;
    private string? _version;
    private string? _settings;
    private int _thirdNodes;

    /// <inheritdoc/>
    public override string Version => _version ?? "Erlang/OTP (not started yet)";

    /// <summary>Gets the settings the nodes run with, as the report prints them: all defaults, with the scheduler counts.</summary>
    public override string? Settings => _settings;

    /// <inheritdoc/>
    public override IEnumerable<Process> Nodes =>
        _first is not null && _second is not null ? [_first.Process, _second] : throw new InvalidOperationException("Not started.");

    /// <inheritdoc/>
    public override async Task StartAsync()
    {
        var (erl, erlc) = await ErlangTools.RequireAsync(Console.WriteLine).ConfigureAwait(false);
        _erl = erl;
        await ErlangTools.CompileAsync(erlc, _ebin).ConfigureAwait(false);
        _first = await ErlangCommandNode.StartAsync(Erl($"bench1_{_id}", "-run", "dist_bench", "main", $"bench2_{_id}")).ConfigureAwait(false);
        var info = await _first.CallAsync("info").ConfigureAwait(false);
        _second = Process.GetProcessById(int.Parse(info[0], CultureInfo.InvariantCulture));
        _version = $"Erlang/OTP {info[1]} (ERTS {info[2]})";
        _settings = $"VM flags all default: {info[3]} schedulers on node 1 and {info[4]} on node 2 (+S: one a core), scheduler busy-wait default, net_ticktime 60 s";
    }

    /// <inheritdoc/>
    public override async Task<double[]> PingPongAsync(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);

        // Timed on node 1 with erlang:monotonic_time in nanoseconds, each from the send to the answer's arrival.
        var nanoseconds = await Started.CallAsync(Invariant($"pingpong {count}")).ConfigureAwait(false);
        if (nanoseconds.Length != count)
        {
            throw new InvalidOperationException($"Erlang node 1 timed {nanoseconds.Length} round trips, not {count}.");
        }

        return nanoseconds.Select(n => long.Parse(n, CultureInfo.InvariantCulture) / 1_000.0).ToArray();
    }

    /// <inheritdoc/>
    public override async Task StreamAsync(int count, int window)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(window);

        // Answers ok once the sink has acknowledged the last message in order; an error otherwise, which throws.
        await Started.CallAsync(Invariant($"stream {count} {window}")).ConfigureAwait(false);
    }

    /// <inheritdoc/>
    public override async Task<TimeSpan> RingAsync(int size, int laps)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(size);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(laps);

        // The ring is built inside the call (the remote members spawned all at once with spawn_request) and torn
        // down (a stop to each member, not waited for) before the answer; node 1 times only the token's travel.
        var nanoseconds = await Started.CallAsync(Invariant($"ring {size} {laps}")).ConfigureAwait(false);
        return TimeSpan.FromTicks(long.Parse(nanoseconds[0], CultureInfo.InvariantCulture) / 100);
    }

    /// <inheritdoc/>
    /// <remarks>
    /// Node 3 is an <c>erl</c> child of this program (not a <c>peer</c> of node 1, whose control connection would
    /// be a second way to learn of its death), holding one process registered as <c>victim</c>. Node 1 connects to
    /// it, spawns the watchers, each calling <c>erlang:monitor(process, Victim)</c>, and answers <c>armed</c>; this
    /// kills node 3's BEAM; the kernel closes its TCP connections, and node 1's distribution delivers
    /// <c>{'DOWN', _, process, _, noconnection}</c> to every watcher. The net tick time plays no part. Node 1 takes
    /// <c>os:system_time</c> when the last watcher gets its 'DOWN', the clock <see cref="DateTime.UtcNow"/> reads here.
    /// </remarks>
    public override async Task<TimeSpan> NodeDownAsync(int watchers)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(watchers);
        var first = Started;
        var name = $"bench3_{_id}_{++_thirdNodes}";
        var command = Invariant($"nodedown {watchers} {name}@127.0.0.1");
        Process? third = null;
        var armed = false;
        try
        {
            third = await NodeProcess.StartAsync(Erl(name, "-run", "dist_bench", "victim")).ConfigureAwait(false);
            await first.CallAsync(command, "armed").ConfigureAwait(false);
            armed = true;
            var before = DateTime.UtcNow;

            // The BEAM alone (erl execs it): killing a whole tree takes .NET tens of milliseconds to walk, and the
            // watchers hear of the death before that returns. The tree goes in the finally block.
            third.Kill();
            var answer = await first.ReadAnswerAsync("ok", command).ConfigureAwait(false);
            armed = false;
            var lastDown = DateTime.UnixEpoch.AddTicks(long.Parse(answer[0], CultureInfo.InvariantCulture) / 100);
            return lastDown >= before
                ? lastDown - before
                : throw new InvalidOperationException($"The last watcher heard of node 3's death {before - lastDown} before it was killed.");
        }
        finally
        {
            if (armed)
            {
                // The kill or the wait failed after node 1 armed its watchers: its last answer will come unread.
                first.Abandon();
            }

            if (third is not null)
            {
                if (!third.HasExited)
                {
                    third.Kill(entireProcessTree: true);
                }

                await third.WaitForExitAsync().ConfigureAwait(false);
                third.Dispose();
            }
        }
    }

    /// <inheritdoc/>
    public override ValueTask DisposeAsync()
    {
        try
        {
            if (_first is not null)
            {
                // Closing node 1's standard input ends its command loop: it stops node 2 with peer:stop and halts.
                // If it does not end in time, Stop kills its process tree, node 2 included.
                NodeProcess.Stop(_first.Process);
                _first = null;
            }

            if (_second is not null)
            {
                if (!_second.WaitForExit(TimeSpan.FromSeconds(10)))
                {
                    _second.Kill();
                }

                _second.Dispose();
                _second = null;
            }
        }
        finally
        {
            if (Directory.Exists(_ebin))
            {
                Directory.Delete(_ebin, recursive: true);
            }
        }

        return ValueTask.CompletedTask;
    }

    private ErlangCommandNode Started => _first ?? throw new InvalidOperationException("Not started.");

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    /// <summary>
    /// An <c>erl</c> node named <paramref name="name"/> on 127.0.0.1 with this contender's cookie and the compiled
    /// module on its code path. <c>-noshell</c>: no Erlang shell, but standard input readable by the module.
    /// </summary>
    private ProcessStartInfo Erl(string name, params string[] arguments)
    {
        var start = new ProcessStartInfo(_erl ?? throw new InvalidOperationException("Not started."));
        foreach (var argument in (string[])["-noshell", "-name", $"{name}@127.0.0.1", "-setcookie", _cookie, "-pa", _ebin, .. arguments])
        {
            start.ArgumentList.Add(argument);
        }

        return start;
    }
}
