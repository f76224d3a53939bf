using System;
using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;
using System.Threading;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// The Erlang chat server (<c>benchmarks/erlang/chat_server.erl</c>) in its own VM, seen as an <see cref="IChatServer"/>:
/// its port from its first line, its counts from the lines it prints each second they change. Disposing closes its
/// standard input, which stops it.
/// </summary>
internal sealed partial class ErlangChatServer : IChatServer
{
    private readonly Process _process;
    private readonly ManualResetEventSlim _listening = new();
    private int _port;

    internal ErlangChatServer(ErlangRuntime runtime, ChatOptions options)
    {
        var start = new ProcessStartInfo(runtime.Erl)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in Arguments(runtime.Ebin, options))
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start) ?? throw new InvalidOperationException($"{runtime.Erl} did not start");
        _process.OutputDataReceived += (_, e) => Read(e.Data);
        _process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is { } line)
            {
                Console.Error.WriteLine($"erlang chat server: {line}");
            }
        };
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        if (!_listening.Wait(TimeSpan.FromSeconds(60)) || _process.HasExited)
        {
            Dispose();
            throw new InvalidOperationException("the Erlang chat server did not start listening within 60 s");
        }
    }

    /// <inheritdoc/>
    public int Port => Volatile.Read(ref _port);

    /// <inheritdoc/>
    public ChatCounters Counters { get; } = new();

    /// <summary>Gets the VM's process id, for its memory.</summary>
    public int ProcessId => _process.Id;

    /// <summary>Gets the command line that starts the server, as a report prints it.</summary>
    public static string CommandLine(ChatOptions options) => string.Join(' ', Arguments("<build dir>", options)).Insert(0, "erl ");

    public void Dispose()
    {
        try
        {
            _process.StandardInput.Close();
            if (!_process.WaitForExit(TimeSpan.FromSeconds(10)))
            {
                _process.Kill(entireProcessTree: true);
            }
        }
        finally
        {
            _process.Dispose();
            _listening.Dispose();
        }
    }

    private static string[] Arguments(string ebin, ChatOptions options)
    {
        var schedulers = options.Workers.ToString(CultureInfo.InvariantCulture);
        return
        [
            "-noshell", "+S", $"{schedulers}:{schedulers}", "+P", "4194304", "-pa", ebin,
            "-run", "chat_server", "main",
            options.Port.ToString(CultureInfo.InvariantCulture),
            ((long)options.IdleTimeout.TotalMilliseconds).ToString(CultureInfo.InvariantCulture),
            options.OutboundCapacity.ToString(CultureInfo.InvariantCulture),
            options.FailOn ?? string.Empty,
        ];
    }

    [GeneratedRegex(@"^erlang chat server on 127\.0\.0\.1:(\d+)$")]
    private static partial Regex ListeningLine();

    [GeneratedRegex(@"^connections (\d+), rooms (\d+), lines in (\d+), out (\d+), dropped \(slow\) (\d+), closed \(idle\) (\d+), faulted (\d+)$")]
    private static partial Regex CountsLine();

    private void Read(string? line)
    {
        if (line is null)
        {
            return;
        }

        if (ListeningLine().Match(line) is { Success: true } listening)
        {
            Volatile.Write(ref _port, int.Parse(listening.Groups[1].Value, CultureInfo.InvariantCulture));
            _listening.Set();
        }
        else if (CountsLine().Match(line) is { Success: true } counts)
        {
            long N(int group) => long.Parse(counts.Groups[group].Value, CultureInfo.InvariantCulture);
            Counters.Set(N(1), N(2), N(3), N(4), N(5), N(6), N(7));
        }
    }
}
