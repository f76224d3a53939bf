using System;
using System.Threading.Tasks;
using ThreadIterators.Benchmarks.ChatComparison;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Tests;

/// <summary>
/// The chat comparison's load client: clean against both .NET servers, and it rejects a server that drops, reorders or
/// repeats a line.
/// </summary>
public sealed class ChatLoadTests
{
    private static readonly ChatLoadOptions Load = new() { Connections = 100, RoomSize = 10, Lines = 20, StallSeconds = 10 };

    [Theory]
    [InlineData("green")]
    [InlineData("async")]
    public async Task ChatLoad_AgainstEitherServer_DeliversEveryLineOnce_InOrder(string implementation)
    {
        using var server = Start(implementation);
        var result = await ChatLoad.RunAsync(Load with { Port = server.Port }).WaitAsync(Waiting.Timeout);
        Assert.True(result.Clean, $"lost {result.Lost}, misordered {result.Misordered}, connection errors {result.ConnectionErrors}: {string.Join("; ", result.Errors)}");
        Assert.Equal(100L * 20 * 9, result.Expected);
        Assert.Equal(result.Expected, result.Delivered);
        Assert.True(result.P99Microseconds > 0);
    }

    [Theory]
    [InlineData("green")]
    [InlineData("async")]
    public async Task ChatLoad_WithStalledAndVanishingClients_TheOthersGetEveryLineOnce_InOrder(string implementation)
    {
        using var server = Start(implementation);
        var result = await ChatLoad.RunAsync(Load with { Port = server.Port, Misbehaving = true }).WaitAsync(Waiting.Timeout);
        Assert.True(result.Clean, $"lost {result.Lost}, misordered {result.Misordered}, connection errors {result.ConnectionErrors}: {string.Join("; ", result.Errors)}");

        // Eight senders in each room of ten; each of them hears the other seven.
        Assert.Equal(80L * 20 * 7, result.Expected);
        Assert.Equal(result.Expected, result.Delivered);
        Waiting.Until(() => server.Counters.Connections == 0, () => $"every connection ends, the vanished ones too ({server.Counters})");
    }

    [Theory]
    [InlineData(SabotagingProxy.Sabotage.DropALine)]
    [InlineData(SabotagingProxy.Sabotage.SwapTwoLines)]
    [InlineData(SabotagingProxy.Sabotage.RepeatALine)]
    public async Task ChatLoad_AgainstAServerThatLosesReordersOrRepeatsALine_IsNotClean(SabotagingProxy.Sabotage sabotage)
    {
        using var server = Start("async");
        using var proxy = new SabotagingProxy(server.Port, sabotage);
        var result = await ChatLoad.RunAsync(Load with { Port = proxy.Port, StallSeconds = 2 }).WaitAsync(Waiting.Timeout);
        Assert.False(result.Clean, $"a {sabotage} went unnoticed");
        switch (sabotage)
        {
            case SabotagingProxy.Sabotage.DropALine:
                Assert.Equal(1, result.Lost);
                break;
            case SabotagingProxy.Sabotage.SwapTwoLines:
                Assert.Equal(0, result.Lost);
                Assert.Equal(2, result.Misordered);
                break;
            default:
                Assert.True(result.Misordered >= 1, $"misordered {result.Misordered}");
                break;
        }
    }

    private static IChatServer Start(string implementation)
    {
        var options = new ChatOptions { Port = 0, Workers = 2 };
        return implementation == "green" ? new ChatServer(options) : new AsyncChatServer(options);
    }
}
