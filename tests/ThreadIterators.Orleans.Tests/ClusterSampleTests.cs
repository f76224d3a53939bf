using System;
using System.Threading.Tasks;
using ThreadIterators.Samples.Cluster;

namespace ThreadIterators.Orleans.Tests;

/// <summary>samples/Cluster: two silos on loopback, a client on each, one room; every line reaches the other silo's member.</summary>
public sealed class ClusterSampleTests
{
    [Fact]
    public async Task TheScriptedConversation_ReachesBothSilosMembers_InOrder()
    {
        var clusterId = $"chat-{Guid.NewGuid():N}";
        var (firstSilo, firstGateway, secondSilo, secondGateway) = (ChatSilo.FreePort(), ChatSilo.FreePort(), ChatSilo.FreePort(), ChatSilo.FreePort());
        await using var first = await ChatSilo.StartAsync("A", firstSilo, firstGateway, primarySiloPort: null, chatPort: 0, clusterId);
        await using var second = await ChatSilo.StartAsync("B", secondSilo, secondGateway, primarySiloPort: firstSilo, chatPort: 0, clusterId);

        var transcript = await Conversation.RunAsync(first.ChatPort, second.ChatPort, TimeSpan.FromSeconds(60));

        Assert.True(transcript.Succeeded, $"{transcript.Failure}; read: {string.Join(" | ", transcript.Lines)}");
        Assert.Equal(8, transcript.Lines.Count);
    }
}
