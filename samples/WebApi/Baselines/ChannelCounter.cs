using System;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using Microsoft.Extensions.Hosting;

namespace WebApi.Baselines;

/// <summary>
/// The counter behind a <see cref="Channel{T}"/>: one async loop owns the count, as the actor does, and each request
/// waits on a <see cref="TaskCompletionSource{TResult}"/> for its answer. A hosted service, so the loop lives with the host.
/// </summary>
internal sealed class ChannelCounter : BackgroundService
{
    private readonly Channel<(long Amount, TaskCompletionSource<long> Reply)> _requests =
        Channel.CreateUnbounded<(long, TaskCompletionSource<long>)>(new UnboundedChannelOptions { SingleReader = true });

    /// <summary>Adds <paramref name="amount"/> and returns the new count, once the loop has taken the request.</summary>
    public Task<long> AddAsync(long amount)
    {
        var reply = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
        if (!_requests.Writer.TryWrite((amount, reply)))
        {
            reply.SetException(new InvalidOperationException("The channel counter has stopped."));
        }

        return reply.Task;
    }

    /// <inheritdoc/>
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var count = 0L;
        try
        {
            await foreach (var (amount, reply) in _requests.Reader.ReadAllAsync(stoppingToken))
            {
                count += amount;
                reply.SetResult(count);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // The host is stopping.
        }
    }
}
