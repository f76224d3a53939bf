using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Orleans.GrainDirectory;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>
/// The processes' grain directory when the silo registered Orleans' distributed directory under a name of its own
/// before AddThreadIterators: Orleans registers that directory once, under the first name it is given, so the
/// processes' name stands for the same directory, through this.
/// </summary>
/// <param name="inner">The distributed directory, as the silo registered it.</param>
internal sealed class SharedGrainDirectory(IGrainDirectory inner) : IGrainDirectory
{
    public Task<GrainAddress?> Register(GrainAddress address) => inner.Register(address);

    public Task<GrainAddress?> Register(GrainAddress address, CancellationToken cancellationToken) => inner.Register(address, cancellationToken);

    public Task<GrainAddress?> Register(GrainAddress address, GrainAddress? previousAddress) => inner.Register(address, previousAddress);

    public Task<GrainAddress?> Register(GrainAddress address, GrainAddress? previousAddress, CancellationToken cancellationToken) =>
        inner.Register(address, previousAddress, cancellationToken);

    public Task Unregister(GrainAddress address) => inner.Unregister(address);

    public Task Unregister(GrainAddress address, CancellationToken cancellationToken) => inner.Unregister(address, cancellationToken);

    public Task<GrainAddress?> Lookup(GrainId grainId) => inner.Lookup(grainId);

    public Task<GrainAddress?> Lookup(GrainId grainId, CancellationToken cancellationToken) => inner.Lookup(grainId, cancellationToken);

    public Task UnregisterSilos(List<SiloAddress> siloAddresses) => inner.UnregisterSilos(siloAddresses);

    public Task UnregisterSilos(List<SiloAddress> siloAddresses, CancellationToken cancellationToken) => inner.UnregisterSilos(siloAddresses, cancellationToken);
}
