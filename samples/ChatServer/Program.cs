using System;
using System.Threading;
using ThreadIterators.Samples.Chat;

// A chat server on green threads: dotnet run -c Release --project samples/ChatServer [-- --port 7000 --idle 60 --outbound 1024 --workers N]
var port = 7000;
var idle = 60;
var outbound = 1024;
var workers = Environment.ProcessorCount;
for (var i = 0; i + 1 < args.Length; i += 2)
{
    var value = int.Parse(args[i + 1]);
    switch (args[i])
    {
        case "--port": port = value; break;
        case "--idle": idle = value; break;
        case "--outbound": outbound = value; break;
        case "--workers": workers = value; break;
        default: throw new ArgumentException($"Unknown option {args[i]}; the options are --port, --idle (seconds), --outbound (lines) and --workers.");
    }
}

using var server = new ChatServer(new ChatOptions { Port = port, IdleTimeout = TimeSpan.FromSeconds(idle), OutboundCapacity = outbound, Workers = workers });
Console.WriteLine($"Chat server on 127.0.0.1:{server.Port} ({workers} workers). Connect with `nc 127.0.0.1 {server.Port}`, then type /join ROOM and chat; /leave and /quit.");
Console.WriteLine("Ctrl+C stops it.");
using var stop = new ManualResetEventSlim();
Console.CancelKeyPress += (_, e) =>
{
    e.Cancel = true;
    stop.Set();
};

var last = string.Empty;
while (!stop.Wait(TimeSpan.FromSeconds(1)))
{
    var counts = server.Counters.ToString();
    if (counts != last)
    {
        Console.WriteLine(counts);
        last = counts;
    }
}
