using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;

/// <summary>
/// The two silos both Orleans contenders run on: the first in this process, the second (<see cref="ClusterNode"/>'s
/// peer) in a child. Started by whichever contender starts first, and stopped once.
/// </summary>
internal sealed class OrleansPair(int workers, IReadOnlyList<int> ringSizes) : IAsyncDisposable
{
    private readonly string _clusterId = $"bench-{Guid.NewGuid():N}";
    private readonly int _primaryPort = BenchSilo.FreePort();
    private readonly SemaphoreSlim _gate = new(1, 1);
    private BenchSilo? _first;
    private Process? _second;

    /// <summary>Gets the silo in this process.</summary>
    public BenchSilo First => _first ?? throw new InvalidOperationException("The Orleans nodes have not started.");

    /// <summary>Gets the second node's process.</summary>
    public Process Second => _second ?? throw new InvalidOperationException("The Orleans nodes have not started.");

    /// <summary>Gets the ring sizes whose odd forwarders the second node holds.</summary>
    public IReadOnlyList<int> RingSizes => ringSizes;

    /// <summary>Gets the version the report prints.</summary>
    public static string Version => $"Microsoft Orleans {PackageVersion(typeof(global::Orleans.IGrain))}";

    /// <summary>The version of the package that holds <paramref name="type"/>: its informational version, without a commit.</summary>
    public static string PackageVersion(Type type) =>
        type.Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion is { } informational
            ? Regex.Match(informational, @"^\d+(\.\d+)*(-[0-9A-Za-z.-]+)?").Value.TrimEnd('.')
            : type.Assembly.GetName().Version?.ToString(3) ?? "unknown";

    /// <summary>Gets the silos' settings that are not Orleans' defaults, as the report prints them.</summary>
    public static string Settings =>
        $"membership probe timeout {BenchSilo.ProbeTimeout.TotalSeconds:0.#} s, {BenchSilo.MissedProbes} missed probes, 1 vote to declare a silo dead (defaults: 5 s, 3, 2)";

    /// <summary>Starts both silos, unless they are started.</summary>
    public async Task StartAsync()
    {
        await _gate.WaitAsync().ConfigureAwait(false);
        try
        {
            if (_first is not null)
            {
                return;
            }

            _first = await BenchSilo.StartAsync(_primaryPort, BenchSilo.FreePort(), primaryPort: null, _clusterId, workers).ConfigureAwait(false);
            _second = await StartNodeAsync(ClusterNode.Peer, string.Join(',', ringSizes.Select(s => s.ToString(CultureInfo.InvariantCulture)))).ConfigureAwait(false);
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>
    /// Starts a third silo in a child process, running one process named <paramref name="name"/>, and returns the
    /// process and the silo's port.
    /// </summary>
    public async Task<(Process Node, int SiloPort)> StartVictimAsync(string name)
    {
        var port = BenchSilo.FreePort();
        return (await StartNodeAsync(ClusterNode.VictimRole, name, port).ConfigureAwait(false), port);
    }

    public async ValueTask DisposeAsync()
    {
        await _gate.WaitAsync().ConfigureAwait(false);
        try
        {
            if (_second is { } second)
            {
                NodeProcess.Stop(second);
                _second = null;
            }

            if (_first is { } first)
            {
                await first.DisposeAsync().ConfigureAwait(false);
                _first = null;
            }
        }
        finally
        {
            _gate.Release();
        }
    }

    private Task<Process> StartNodeAsync(string role, string argument, int? siloPort = null) =>
        NodeProcess.StartThisAsync(
            ClusterNode.Command,
            $"{siloPort ?? BenchSilo.FreePort()}",
            $"{BenchSilo.FreePort()}",
            $"{_primaryPort}",
            _clusterId,
            $"{workers}",
            role,
            argument);
}
