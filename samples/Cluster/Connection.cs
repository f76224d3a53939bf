using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using ThreadIterators.Orleans;

namespace ThreadIterators.Samples.Cluster;

/// <summary>
/// A client's connection to one silo: a reader green thread that acts on its lines, and a writer, a process named
/// "member/ID" on this silo, whose inbox takes the lines said to the client from any room on any silo.
/// </summary>
internal static class Connection
{
    internal static IEnumerable<Event> Serve(ClusterProcesses processes, TcpClient client, string id)
    {
        var stream = client.GetStream();
        var reader = new StreamReader(stream, Encoding.UTF8);
        var writer = new StreamWriter(stream, new UTF8Encoding(false)) { NewLine = "\n", AutoFlush = false };
        var spawn = new TaskEvent<ProcessRef<string>>();
        yield return spawn.For(processes.SpawnAsync<string>($"member/{id}", inbox => Write(inbox, writer)));
        var self = spawn.Result;
        self.Send($"/hello {id}");
        ProcessRef<RoomCommand>? room = null;
        var read = new TaskEvent<string?>();
        try
        {
            while (true)
            {
                yield return read.For(reader.ReadLineAsync());
                string? line;
                try
                {
                    line = read.Result;
                }
                catch (IOException)
                {
                    yield break;
                }

                if (line is null || line == "/quit")
                {
                    yield break;
                }

                if (line.StartsWith("/join ", StringComparison.Ordinal))
                {
                    room?.Send(new RoomCommand(RoomCommandKind.Leave, id));
                    room = processes.Get<RoomCommand>($"room/{line[6..].Trim()}");
                    room.Send(new RoomCommand(RoomCommandKind.Join, id, self));
                }
                else if (line == "/leave" && room is not null)
                {
                    room.Send(new RoomCommand(RoomCommandKind.Leave, id));
                    room = null;
                }
                else if (!line.StartsWith('/') && room is not null)
                {
                    room.Send(new RoomCommand(RoomCommandKind.Line, id, Line: line));
                }
                else
                {
                    self.Send(room is null ? "/error join a room first: /join ROOM" : "/error unknown command");
                }
            }
        }
        finally
        {
            room?.Send(new RoomCommand(RoomCommandKind.Leave, id, Line: Room.Quitting));
            self.Send(Bye);
        }
    }

    /// <summary>The line that ends the writer, and the connection with it.</summary>
    internal const string Bye = "/bye";

    /// <summary>The writer: gathers the lines waiting, writes them in one flush, until it writes the last.</summary>
    private static IEnumerable<Event> Write(Mailbox<string> inbox, StreamWriter writer)
    {
        var flush = new TaskEvent();
        var next = inbox.Recv();
        var done = false;
        try
        {
            while (!done)
            {
                yield return next;
                var line = next.Value;
                writer.WriteLine(line);
                done = line == Bye;
                while (!done && inbox.TryRecv(out var more))
                {
                    writer.WriteLine(more);
                    done = more == Bye;
                }

                yield return flush.For(writer.FlushAsync());
                try
                {
                    flush.GetResult();
                }
                catch (IOException)
                {
                    yield break;
                }
            }
        }
        finally
        {
            writer.Dispose();
        }
    }
}
