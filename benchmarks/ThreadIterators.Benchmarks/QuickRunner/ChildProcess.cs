using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Text;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>Runs another program to completion and collects its output: each measured run gets a fresh process.</summary>
internal static class ChildProcess
{
    /// <summary>What a child printed and how it ended.</summary>
    /// <param name="ExitCode">The child's exit code.</param>
    /// <param name="Lines">Every line of its standard output.</param>
    /// <param name="Error">Its standard error.</param>
    internal sealed record Outcome(int ExitCode, IReadOnlyList<string> Lines, string Error);

    /// <summary>
    /// Starts this benchmark program again with <paramref name="arguments"/>: through its own apphost, or through the
    /// <c>dotnet</c> host that runs this process (under <c>dotnet run</c>, or a test host loading this assembly).
    /// </summary>
    public static Outcome RunSelf(IEnumerable<string> arguments, TimeSpan timeout)
    {
        var (host, all) = Self(arguments);
        return Run(host, all, timeout);
    }

    /// <summary>
    /// The program and arguments that start this benchmark program again with <paramref name="arguments"/>: its own
    /// apphost, or the <c>dotnet</c> host that runs this process with this assembly as the first argument.
    /// </summary>
    public static (string FileName, List<string> Arguments) Self(IEnumerable<string> arguments)
    {
        var host = Environment.ProcessPath!;
        var program = typeof(ChildProcess).Assembly.Location;
        var all = new List<string>();
        var hostName = Path.GetFileName(host);
        var apphost = Path.GetFileNameWithoutExtension(program);
        if (hostName is "dotnet" or "dotnet.exe")
        {
            all.Add(program);
        }
        else if (hostName != apphost && hostName != apphost + ".exe")
        {
            throw new InvalidOperationException($"cannot start {program} again from {host}: run it with dotnet or its own apphost.");
        }

        all.AddRange(arguments);
        return (host, all);
    }

    /// <summary>
    /// Runs <paramref name="fileName"/> and waits for it. A child still running after <paramref name="timeout"/> is
    /// killed and reported as an error, so a hung benchmark fails the comparison instead of stalling it.
    /// </summary>
    public static Outcome Run(string fileName, IEnumerable<string> arguments, TimeSpan timeout, IEnumerable<(string Name, string Value)>? environment = null)
    {
        var start = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in environment ?? [])
        {
            start.Environment[name] = value;
        }

        using var child = Process.Start(start) ?? throw new InvalidOperationException($"could not start {fileName}");
        var error = new StringBuilder();
        child.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                lock (error)
                {
                    error.AppendLine(e.Data);
                }
            }
        };
        child.BeginErrorReadLine();
        var reader = child.StandardOutput.ReadToEndAsync();
        if (!child.WaitForExit(timeout))
        {
            child.Kill(entireProcessTree: true);
            child.WaitForExit(TimeSpan.FromSeconds(10));
            throw new TimeoutException($"{fileName} {string.Join(' ', start.ArgumentList)} was still running after {timeout.TotalMinutes:F0} minutes and was killed.");
        }

        child.WaitForExit();
        var lines = reader.GetAwaiter().GetResult().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        lock (error)
        {
            return new Outcome(child.ExitCode, lines, error.ToString());
        }
    }
}
