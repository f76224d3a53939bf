using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders;

/// <summary>
/// A node in a child process: this program started with a node command, or another program, which prints
/// <see cref="Ready"/> on a line of its own when it is ready and ends when its standard input closes.
/// </summary>
internal static class NodeProcess
{
    /// <summary>The line a node prints when it is ready.</summary>
    public const string Ready = "ready";

    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    /// <summary>Starts this program with <paramref name="arguments"/> (the node command first) and waits until it is ready.</summary>
    public static Task<Process> StartThisAsync(params IEnumerable<string> arguments)
    {
        var start = new ProcessStartInfo(Environment.ProcessPath ?? "dotnet");
        if (Path.GetFileNameWithoutExtension(start.FileName) == "dotnet")
        {
            start.ArgumentList.Add(typeof(NodeProcess).Assembly.Location);
        }

        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        return StartAsync(start);
    }

    /// <summary>
    /// Starts <paramref name="start"/> with its standard input and output redirected, and waits until it prints
    /// <see cref="Ready"/>. The lines it prints before that are passed to <paramref name="line"/>, if given; its later
    /// output is read and dropped, so that it never blocks on a full pipe.
    /// </summary>
    public static async Task<Process> StartAsync(ProcessStartInfo start, Action<string>? line = null)
    {
        start.RedirectStandardInput = true;
        start.RedirectStandardOutput = true;
        start.UseShellExecute = false;
        var node = Process.Start(start) ?? throw new InvalidOperationException($"{start.FileName} did not start.");
        while (await node.StandardOutput.ReadLineAsync().WaitAsync(Patience).ConfigureAwait(false) is { } text)
        {
            if (text.Trim() == Ready)
            {
                _ = node.StandardOutput.ReadToEndAsync();
                return node;
            }

            line?.Invoke(text);
        }

        await node.WaitForExitAsync().ConfigureAwait(false);
        throw new InvalidOperationException($"{start.FileName} {string.Join(' ', start.ArgumentList)} ended before it was ready (exit code {node.ExitCode}).");
    }

    /// <summary>Closes the node's standard input, waits a while for it to end, and kills it if it does not.</summary>
    public static void Stop(Process node)
    {
        try
        {
            if (!node.HasExited)
            {
                node.StandardInput.Close();
                if (!node.WaitForExit(TimeSpan.FromSeconds(30)))
                {
                    node.Kill(entireProcessTree: true);
                }
            }
        }
        finally
        {
            node.Dispose();
        }
    }

    /// <summary>Waits, in a node, until its standard input closes: the parent's signal to end.</summary>
    public static async Task WaitForParentAsync()
    {
        while (await Console.In.ReadLineAsync().ConfigureAwait(false) is not null)
        {
        }
    }
}
