using System;
using System.Globalization;
using System.Threading.Tasks;
using Orleans;
using Orleans.Runtime;
using Orleans.GrainDirectory;
using Orleans.Placement;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;

/// <summary>A forwarder of the raw Orleans ring, placed on the silo that first calls it.</summary>
[PreferLocalPlacement]
[KeepAlive]
[GrainDirectory(GrainDirectoryName = BenchSilo.RawDirectory)]
internal sealed class RingGrain(ILocalSiloDetails silo) : Grain, IRingGrain
{
    private IRingGrain? _next;

    /// <summary>
    /// Completed when a token reaches a forwarder with no hop left: only forwarder 0, on the first node, whose
    /// driver set it, ever sees that.
    /// </summary>
    public static TaskCompletionSource? Done { get; set; }

    public static string Key(int size, int index) => string.Create(CultureInfo.InvariantCulture, $"ring/{size}/{index}");

    public Task<string> Place() => Task.FromResult(silo.SiloAddress.ToString());

    public Task Forward(long left)
    {
        if (left == 0)
        {
            Done?.TrySetResult();
            return Task.CompletedTask;
        }

        if (_next is null)
        {
            var parts = this.GetPrimaryKeyString().Split('/');
            var size = int.Parse(parts[1], CultureInfo.InvariantCulture);
            var index = int.Parse(parts[2], CultureInfo.InvariantCulture);
            _next = GrainFactory.GetGrain<IRingGrain>(Key(size, (index + 1) % size));
        }

        return _next.Forward(left - 1);
    }
}
