using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;

namespace ThreadIterators.Samples.Cluster;

/// <summary>
/// A scripted conversation between two TCP clients, one on each silo's front end, in one room: each says lines and
/// must read the other's, in order. Plain async code, as a client of the chat would be.
/// </summary>
public static class Conversation
{
    /// <summary>Runs the conversation; the transcript says what each client read and whether it was right.</summary>
    public static async Task<Transcript> RunAsync(int firstPort, int secondPort, TimeSpan timeout)
    {
        var transcript = new Transcript();
        try
        {
            using var first = await Client.ConnectAsync(firstPort).ConfigureAwait(false);
            using var second = await Client.ConnectAsync(secondPort).ConfigureAwait(false);
            var firstId = (await first.ExpectAsync("/hello ", timeout).ConfigureAwait(false))["/hello ".Length..];
            var secondId = (await second.ExpectAsync("/hello ", timeout).ConfigureAwait(false))["/hello ".Length..];
            await first.SayAsync("/join lobby").ConfigureAwait(false);
            transcript.Lines.Add($"{firstId}: {await first.ExpectAsync("/joined lobby", timeout).ConfigureAwait(false)}");
            await second.SayAsync("/join lobby").ConfigureAwait(false);
            transcript.Lines.Add($"{secondId}: {await second.ExpectAsync("/joined lobby", timeout).ConfigureAwait(false)}");
            for (var i = 1; i <= 3; i++)
            {
                await first.SayAsync($"hello {i} from silo A").ConfigureAwait(false);
                await second.SayAsync($"hello {i} from silo B").ConfigureAwait(false);
            }

            for (var i = 1; i <= 3; i++)
            {
                transcript.Lines.Add($"{secondId} read: {await second.ExpectAsync($"{firstId} hello {i} from silo A", timeout).ConfigureAwait(false)}");
                transcript.Lines.Add($"{firstId} read: {await first.ExpectAsync($"{secondId} hello {i} from silo B", timeout).ConfigureAwait(false)}");
            }

            await first.SayAsync("/quit").ConfigureAwait(false);
            await second.SayAsync("/quit").ConfigureAwait(false);
            await first.ExpectAsync("/bye", timeout).ConfigureAwait(false);
            await second.ExpectAsync("/bye", timeout).ConfigureAwait(false);
            transcript.Succeeded = true;
        }
        catch (Exception exception) when (exception is IOException or TimeoutException or SocketException or InvalidDataException)
        {
            transcript.Failure = exception.Message;
        }

        return transcript;
    }

    /// <summary>What a conversation read, and whether every expected line came.</summary>
    public sealed class Transcript
    {
        public List<string> Lines { get; } = [];

        public bool Succeeded { get; set; }

        public string? Failure { get; set; }
    }

    private sealed class Client : IDisposable
    {
        private readonly TcpClient _client;
        private readonly StreamReader _reader;
        private readonly StreamWriter _writer;

        private Client(TcpClient client)
        {
            _client = client;
            _reader = new StreamReader(client.GetStream(), Encoding.UTF8);
            _writer = new StreamWriter(client.GetStream(), new UTF8Encoding(false)) { NewLine = "\n", AutoFlush = true };
        }

        public static async Task<Client> ConnectAsync(int port)
        {
            var client = new TcpClient();
            await client.ConnectAsync("127.0.0.1", port).ConfigureAwait(false);
            return new Client(client);
        }

        public Task SayAsync(string line) => _writer.WriteLineAsync(line);

        /// <summary>Reads the next line, which must start with <paramref name="expected"/>.</summary>
        public async Task<string> ExpectAsync(string expected, TimeSpan timeout)
        {
            var line = await _reader.ReadLineAsync().WaitAsync(timeout).ConfigureAwait(false)
                ?? throw new IOException($"The server closed the connection while \"{expected}\" was expected.");
            if (!line.StartsWith(expected, StringComparison.Ordinal))
            {
                throw new InvalidDataException($"Read \"{line}\" where \"{expected}\" was expected.");
            }

            return line;
        }

        public void Dispose()
        {
            _writer.Dispose();
            _reader.Dispose();
            _client.Dispose();
        }
    }
}
