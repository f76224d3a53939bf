using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>
/// A loop run on the thread pool from a silo's or client's start to its stop: started by <see cref="Start"/>, told
/// to end by the token it is given, and waited for by <see cref="StopAsync"/> as long as the stop lets it.
/// </summary>
/// <param name="loop">The loop; it ends when its token is canceled.</param>
internal sealed class BackgroundLoop(Func<CancellationToken, Task> loop) : IDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private Task _running = Task.CompletedTask;

    /// <summary>Starts the loop; the lifecycle's start.</summary>
    public Task Start(CancellationToken cancellationToken)
    {
        _running = Task.Run(() => loop(_stop.Token), CancellationToken.None);
        return Task.CompletedTask;
    }

    /// <summary>Tells the loop to end, and waits for it until <paramref name="cancellationToken"/> gives up; the lifecycle's stop.</summary>
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        try
        {
            await _running.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            // Stopped waiting, or the loop ended on its token: either way it runs no more.
        }
    }

    public void Dispose() => _stop.Dispose();
}
