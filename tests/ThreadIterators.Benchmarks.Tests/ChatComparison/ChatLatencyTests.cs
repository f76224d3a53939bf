using System.Threading.Tasks;
using ThreadIterators.Benchmarks.ChatComparison;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Tests;

/// <summary>
/// The green chat server's probe (receive completion to handled, a heartbeat) and the chat-latency command that runs
/// it in a process of its own, at toy sizes.
/// </summary>
public sealed class ChatLatencyTests
{
    [Fact]
    public async Task ChatProbe_OnTheGreenServer_TimesPendingReceives_AndBeats_WithEveryLineDelivered()
    {
        var probe = new ChatProbe();
        using (var server = new ChatServer(probe.Attach(new ChatOptions { Port = 0, Workers = 1 })))
        {
            probe.Start(server);
            var result = await ChatLoad.RunAsync(new ChatLoadOptions { Port = server.Port, Connections = 20, RoomSize = 10, Lines = 20 }).WaitAsync(Waiting.Timeout);
            Assert.True(result.Clean, $"lost {result.Lost}, misordered {result.Misordered}, connection errors {result.ConnectionErrors}: {string.Join("; ", result.Errors)}");
            Assert.Equal(20L * 20 * 9, result.Delivered);
            Waiting.Until(() => probe.Heartbeat.Count >= 2, () => $"the heartbeat beats ({probe.Heartbeat.Count} so far)");
            probe.Stop();
        }

        // On one worker a reader starts its first receive in the turn that says /hello, before its writer can send it,
        // and the client sends its /join only once greeted: so that receive, at least, is pending for each connection.
        Assert.True(probe.Receives.Count >= 20, $"{probe.Receives.Count} receives timed");
    }

    [Fact]
    public void ChatLatency_Small_RunsBothWorkerCounts_Clean()
    {
        Assert.Equal(0, ChatLatencyCommand.Execute(["chat-latency", "--connections", "20", "--lines", "5", "--runs", "1", "--settle", "0"]));
    }
}
