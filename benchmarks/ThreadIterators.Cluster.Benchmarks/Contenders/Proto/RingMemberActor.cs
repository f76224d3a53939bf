using System;
using System.Globalization;
using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>
/// A member of the ring: passes each <see cref="Token"/> on to <c>next</c> with one hop less to go. The first
/// member, on the first node, is given <c>done</c>, which it completes when the token comes back with none to go.
/// </summary>
internal sealed class RingMemberActor(PID next, TaskCompletionSource? done) : IActor
{
    /// <summary>The name of member <paramref name="index"/> of ring <paramref name="run"/>, on either node.</summary>
    public static string Name(string run, int index) => string.Create(CultureInfo.InvariantCulture, $"ring-{run}-{index}");

    /// <inheritdoc />
    public Task ReceiveAsync(IContext context)
    {
        if (context.Message is Token token)
        {
            if (token.Remaining > 0)
            {
                context.Send(next, new Token { Remaining = token.Remaining - 1 });
            }
            else if (done is not null)
            {
                done.TrySetResult();
            }
            else
            {
                // Only the first member can see the last hop: anything else means the token miscounted.
                throw new InvalidOperationException($"{context.Self} took the ring's token with no hop to go.");
            }
        }

        return Task.CompletedTask;
    }
}
