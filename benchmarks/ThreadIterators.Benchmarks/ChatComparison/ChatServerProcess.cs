using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;
using System.Threading;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Benchmarks.QuickRunner;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// A chat server in a process of its own, seen as an <see cref="IChatServer"/>: the Erlang one
/// (<c>benchmarks/erlang/chat_server.erl</c>), or either .NET one through this program's <c>chat-server</c> command.
/// Its port comes from its first line ("NAME chat server on 127.0.0.1:PORT"), its counts from the lines it prints as
/// they change. Disposing closes its standard input, which stops it.
/// </summary>
internal sealed partial class ChatServerProcess : IChatServer
{
    private readonly Process _process;
    private readonly ManualResetEventSlim _listening = new();
    private int _port;

    private ChatServerProcess(string name, string fileName, IEnumerable<string> arguments)
    {
        Name = name;
        var start = new ProcessStartInfo(fileName)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start) ?? throw new InvalidOperationException($"{fileName} did not start");
        _process.OutputDataReceived += (_, e) => Read(e.Data);
        _process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is { } line)
            {
                Console.Error.WriteLine($"{name} chat server: {line}");
            }
        };
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        if (!_listening.Wait(TimeSpan.FromSeconds(60)) || _process.HasExited)
        {
            Dispose();
            throw new InvalidOperationException($"the {name} chat server did not start listening within 60 s");
        }
    }

    /// <summary>Gets the server's name: green, async or erlang.</summary>
    public string Name { get; }

    /// <inheritdoc/>
    public int Port => Volatile.Read(ref _port);

    /// <inheritdoc/>
    public ChatCounters Counters { get; } = new();

    /// <summary>Gets the process id, for its memory.</summary>
    public int ProcessId => _process.Id;

    /// <summary>Gets the JSON line a server started with a probe printed as it stopped (see <see cref="Stop"/>), or null.</summary>
    public string? Probe { get; private set; }

    /// <summary>Starts the Erlang chat server in its own VM, on <see cref="ChatOptions.Workers"/> schedulers.</summary>
    public static ChatServerProcess Erlang(ErlangRuntime runtime, ChatOptions options) =>
        new("erlang", runtime.Erl, ErlangArguments(runtime.Ebin, options));

    /// <summary>
    /// Starts a .NET chat server (<paramref name="implementation"/>: green or async) through this program's chat-server
    /// command; with <paramref name="probe"/>, the green one measuring what <see cref="ChatProbe"/> says.
    /// </summary>
    public static ChatServerProcess DotNet(string implementation, ChatOptions options, bool probe = false)
    {
        var (fileName, arguments) = ChildProcess.Self(probe ? [.. DotNetArguments(implementation, options), "--probe", "true"] : DotNetArguments(implementation, options));
        return new(implementation, fileName, arguments);
    }

    /// <summary>Gets the command line that starts the server, as a report prints it.</summary>
    public static string CommandLine(string implementation, ChatOptions options) => implementation == "erlang"
        ? "erl " + string.Join(' ', ErlangArguments("<build dir>", options))
        : "dotnet ThreadIterators.Benchmarks.dll " + string.Join(' ', DotNetArguments(implementation, options));

    public void Dispose()
    {
        try
        {
            Stop();
        }
        finally
        {
            _process.Dispose();
            _listening.Dispose();
        }
    }

    /// <summary>Stops the server by closing its standard input and waits for it and the last of its output (<see cref="Probe"/>); killed after 10 s.</summary>
    public void Stop()
    {
        if (_process.HasExited)
        {
            return;
        }

        _process.StandardInput.Close();
        if (_process.WaitForExit(TimeSpan.FromSeconds(10)))
        {
            // The timed wait does not wait for the redirected output to be read to its end; this one does.
            _process.WaitForExit();
        }
        else
        {
            _process.Kill(entireProcessTree: true);
        }
    }

    private static string[] ErlangArguments(string ebin, ChatOptions options)
    {
        var schedulers = options.Workers.ToString(CultureInfo.InvariantCulture);
        string[] arguments =
        [
            "-noshell", "+S", $"{schedulers}:{schedulers}", "+P", "4194304", "-pa", ebin,
            "-run", "chat_server", "main",
            options.Port.ToString(CultureInfo.InvariantCulture),
            ((long)options.IdleTimeout.TotalMilliseconds).ToString(CultureInfo.InvariantCulture),
            options.OutboundCapacity.ToString(CultureInfo.InvariantCulture),
        ];
        return options.FailOn is { } failOn ? [.. arguments, failOn] : arguments;
    }

    private static string[] DotNetArguments(string implementation, ChatOptions options) =>
    [
        "chat-server", "--impl", implementation,
        "--port", options.Port.ToString(CultureInfo.InvariantCulture),
        "--workers", options.Workers.ToString(CultureInfo.InvariantCulture),
        "--idle", Math.Max(1, (long)options.IdleTimeout.TotalSeconds).ToString(CultureInfo.InvariantCulture),
        "--outbound", options.OutboundCapacity.ToString(CultureInfo.InvariantCulture),
    ];

    [GeneratedRegex(@"^\w+ chat server on 127\.0\.0\.1:(\d+)")]
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
        else if (line.StartsWith("{\"probe\"", StringComparison.Ordinal))
        {
            Probe = line;
        }
        else if (CountsLine().Match(line) is { Success: true } counts)
        {
            long N(int group) => long.Parse(counts.Groups[group].Value, CultureInfo.InvariantCulture);
            Counters.Set(N(1), N(2), N(3), N(4), N(5), N(6), N(7));
        }
    }
}
