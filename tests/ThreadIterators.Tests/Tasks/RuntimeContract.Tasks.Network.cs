using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    /// <summary>
    /// A socket read through <c>ReadAsync(...).AsEvent()</c>: while it is pending, another green thread runs to
    /// completion on the same workers (on one worker, that is the very worker the reader waits on, so the read does
    /// not block it); only then does the client write, and the reader gets the bytes and answers them.
    /// </summary>
    [Fact]
    public void TaskEvent_PendingSocketRead_LeavesTheWorkerFree_AndGetsTheBytesOnceTheyArrive()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        using var client = new TcpClient();
        client.Connect((IPEndPoint)listener.LocalEndpoint);
        using var server = listener.AcceptTcpClient();
        using var serverStream = server.GetStream();
        using var clientStream = client.GetStream();
        clientStream.ReadTimeout = (int)Timeout.TotalMilliseconds;

        var workers = Probe.WorkerThreadIds(Scheduler);
        TaskEvent<int>? pendingRead = null;
        var received = new List<byte>();
        var readerResumedOn = 0;
        var otherRanOn = 0;
        var reader = Scheduler.Spawn(Reader(), "reader");
        WaitUntil(() => Volatile.Read(ref pendingRead) is { } read && Probe.IsWaiting(read), "the reader parks on its pending read");

        var other = Scheduler.Spawn(Other(), "other");
        Join(other);
        Assert.Contains(otherRanOn, workers);
        Assert.False(reader.IsCompleted, "the reader ended before any byte was sent");
        Assert.True(Probe.IsWaiting(pendingRead!), "the read completed before any byte was sent");

        clientStream.Write("hello"u8);
        var answer = new byte[5];
        clientStream.ReadExactly(answer);
        Join(reader);

        Assert.Equal("hello", Encoding.ASCII.GetString(received.ToArray()));
        Assert.Equal("HELLO", Encoding.ASCII.GetString(answer));
        Assert.Contains(readerResumedOn, workers);

        IEnumerable<Event> Reader()
        {
            var buffer = new byte[16];
            var read = new TaskEvent<int>();
            Volatile.Write(ref pendingRead, read);
            while (received.Count < 5)
            {
                yield return read.For(serverStream.ReadAsync(buffer.AsMemory()));
                readerResumedOn = Environment.CurrentManagedThreadId;
                var count = read.Result;
                Assert.NotEqual(0, count);
                received.AddRange(buffer.AsSpan(0, count).ToArray());
            }

            var write = serverStream.WriteAsync(Encoding.ASCII.GetBytes(Encoding.ASCII.GetString(received.ToArray()).ToUpperInvariant())).AsEvent();
            yield return write;
            write.GetResult();
        }

        IEnumerable<Event> Other()
        {
            for (var i = 0; i < 3; i++)
            {
                yield return Event.Yield;
            }

            otherRanOn = Environment.CurrentManagedThreadId;
        }
    }
}
