using System;
using System.Linq;
using System.Threading.Tasks;
using ThreadIterators.Samples.Cluster;

// Two silos of one Orleans cluster on loopback, each with a chat front end. With no argument, a scripted conversation
// checks that a line said on one silo reaches a member of the same room on the other, then both stop. With --serve,
// they run until Ctrl+C, for `nc 127.0.0.1 PORT` clients.
var serve = args.Contains("--serve");
var clusterId = $"chat-{Guid.NewGuid():N}";
var (firstSilo, firstGateway, secondSilo, secondGateway) = (ChatSilo.FreePort(), ChatSilo.FreePort(), ChatSilo.FreePort(), ChatSilo.FreePort());
await using var first = await ChatSilo.StartAsync("A", firstSilo, firstGateway, primarySiloPort: null, chatPort: serve ? 7100 : 0, clusterId);
await using var second = await ChatSilo.StartAsync("B", secondSilo, secondGateway, primarySiloPort: firstSilo, chatPort: serve ? 7101 : 0, clusterId);
Console.WriteLine($"silo A: chat on 127.0.0.1:{first.ChatPort}; silo B: chat on 127.0.0.1:{second.ChatPort}");
if (serve)
{
    var stop = new TaskCompletionSource();
    Console.CancelKeyPress += (_, e) =>
    {
        e.Cancel = true;
        stop.TrySetResult();
    };
    Console.WriteLine("connect with nc to either port, /join ROOM, and type; Ctrl+C stops both silos");
    await stop.Task;
    return 0;
}

var transcript = await Conversation.RunAsync(first.ChatPort, second.ChatPort, TimeSpan.FromSeconds(30));
foreach (var line in transcript.Lines)
{
    Console.WriteLine(line);
}

Console.WriteLine(transcript.Succeeded ? "every line reached the other silo's member" : $"FAILED: {transcript.Failure}");
return transcript.Succeeded ? 0 : 1;
