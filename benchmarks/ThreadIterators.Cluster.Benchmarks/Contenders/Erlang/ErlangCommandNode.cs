using System;
using System.Diagnostics;
using System.Text;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Erlang;

/// <summary>
/// The first Erlang node, an <c>erl</c> child running <c>dist_bench:main/1</c> as a command server: one command a
/// line on its standard input, one answer a line on its standard output (<c>dist_bench ok ...</c>,
/// <c>dist_bench armed</c> or <c>dist_bench error ...</c>). Its other output lines (the logger's) are copied to
/// this program's standard error. Not <see cref="NodeProcess.StartAsync"/>, which drops a node's output once it is
/// ready: the answers come on it.
/// </summary>
internal sealed class ErlangCommandNode
{
    /// <summary>What every answer line starts with.</summary>
    private const string Prefix = "dist_bench ";

    /// <summary>How long a command may take: longer than the module's own patience for any one wait, two minutes.</summary>
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(10);

    /// <summary>Set when an answer was not read (a timeout, or a node-down abandoned midway): answers would no longer match commands.</summary>
    private bool _broken;

    private ErlangCommandNode(Process process) => Process = process;

    /// <summary>Gets the node's OS process (the BEAM: <c>erl</c> is a script that execs it, keeping the pid).</summary>
    public Process Process { get; }

    /// <summary>
    /// Starts <paramref name="start"/>, <c>erl</c> running the module's <c>main</c> (which starts the second node),
    /// and waits until it prints <see cref="NodeProcess.Ready"/>.
    /// </summary>
    public static async Task<ErlangCommandNode> StartAsync(ProcessStartInfo start)
    {
        start.RedirectStandardInput = true;
        start.RedirectStandardOutput = true;
        start.UseShellExecute = false;

        // No byte-order mark before the first command.
        start.StandardInputEncoding = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false);
        var process = Process.Start(start) ?? throw new InvalidOperationException($"{start.FileName} did not start.");
        try
        {
            while (await process.StandardOutput.ReadLineAsync().WaitAsync(Patience).ConfigureAwait(false) is { } line)
            {
                if (line.Trim() == NodeProcess.Ready)
                {
                    return new ErlangCommandNode(process);
                }

                Console.Error.WriteLine($"[erlang node 1] {line}");
            }

            await process.WaitForExitAsync().ConfigureAwait(false);
            throw new InvalidOperationException($"{start.FileName} {string.Join(' ', start.ArgumentList)} ended before it was ready (exit code {process.ExitCode}).");
        }
        catch
        {
            NodeProcess.Stop(process);
            throw;
        }
    }

    /// <summary>Sends <paramref name="command"/> and returns the words of its answer after <paramref name="expected"/> (<c>ok</c> unless told).</summary>
    public async Task<string[]> CallAsync(string command, string expected = "ok")
    {
        ThrowIfBroken();
        await Process.StandardInput.WriteLineAsync(command).ConfigureAwait(false);
        await Process.StandardInput.FlushAsync().ConfigureAwait(false);
        return await ReadAnswerAsync(expected, command).ConfigureAwait(false);
    }

    /// <summary>Reads the next answer of a command whose first answer was <c>armed</c>; throws unless it is <paramref name="expected"/>.</summary>
    public Task<string[]> ReadAnswerAsync(string expected, string command)
    {
        ThrowIfBroken();
        return ReadAsync(expected, command);
    }

    /// <summary>Marks the node as no longer usable: an answer is still to come that nobody will read.</summary>
    public void Abandon() => _broken = true;

    private void ThrowIfBroken()
    {
        if (_broken)
        {
            throw new InvalidOperationException("Erlang node 1 has an answer pending that was never read (an earlier command failed midway); its answers no longer match commands.");
        }
    }

    private async Task<string[]> ReadAsync(string expected, string command)
    {
        try
        {
            while (await Process.StandardOutput.ReadLineAsync().WaitAsync(Patience).ConfigureAwait(false) is { } line)
            {
                if (!line.StartsWith(Prefix, StringComparison.Ordinal))
                {
                    Console.Error.WriteLine($"[erlang node 1] {line}");
                    continue;
                }

                var words = line[Prefix.Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
                if (words.Length > 0 && words[0] == expected)
                {
                    return words[1..];
                }

                throw new InvalidOperationException($"Erlang node 1 answered '{command}' with: {line[Prefix.Length..]}");
            }
        }
        catch (TimeoutException)
        {
            _broken = true;
            throw new TimeoutException($"Erlang node 1 did not answer '{command}' within {Patience}.");
        }

        _broken = true;
        throw new InvalidOperationException($"Erlang node 1 ended while '{command}' was running.");
    }
}
