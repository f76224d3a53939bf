using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Erlang;

/// <summary>
/// Finds <c>erl</c> and <c>erlc</c> (installing Debian's <c>erlang-nox</c> when running as root and they are
/// missing), finds <c>dist_bench.erl</c> in the repository and compiles it. The same steps as the single-machine
/// Erlang comparison's <c>DebianTools</c>, which this program does not reference.
/// </summary>
internal static class ErlangTools
{
    /// <summary>The Debian package that holds <c>erl</c> and <c>erlc</c>.</summary>
    private const string Package = "erlang-nox";

    /// <summary>The module's path from the repository's root.</summary>
    private static readonly string[] SourcePath = ["benchmarks", "erlang", "distribution", "dist_bench.erl"];

    /// <summary>
    /// Returns the full paths of <c>erl</c> and <c>erlc</c>. If either is missing, installs <see cref="Package"/>
    /// with apt-get when running as root, and otherwise throws saying what to install.
    /// </summary>
    public static async Task<(string Erl, string Erlc)> RequireAsync(Action<string> progress)
    {
        if (Find("erl") is null || Find("erlc") is null)
        {
            var aptGet = Find("apt-get");
            if (Environment.UserName != "root" || aptGet is null)
            {
                throw new InvalidOperationException($"erl and erlc are needed on PATH for the Erlang contender. On Debian or Ubuntu: sudo apt-get install {Package}");
            }

            progress($"installing Debian package {Package}");
            await RunAsync(aptGet, ["update"], TimeSpan.FromMinutes(10)).ConfigureAwait(false);
            await RunAsync(aptGet, ["install", "-y", "--no-install-recommends", Package], TimeSpan.FromMinutes(10)).ConfigureAwait(false);
        }

        return (
            Find("erl") ?? throw new InvalidOperationException($"erl is still not on PATH after installing {Package}."),
            Find("erlc") ?? throw new InvalidOperationException($"erlc is still not on PATH after installing {Package}."));
    }

    /// <summary>Compiles <c>dist_bench.erl</c> into <paramref name="ebin"/>, which it creates, with warnings as errors.</summary>
    public static async Task CompileAsync(string erlc, string ebin)
    {
        Directory.CreateDirectory(ebin);
        await RunAsync(erlc, ["+warnings_as_errors", "-o", ebin, FindSource()], TimeSpan.FromMinutes(2)).ConfigureAwait(false);
    }

    /// <summary>The first executable file named <paramref name="command"/> on PATH, or null.</summary>
    private static string? Find(string command) => (Environment.GetEnvironmentVariable("PATH") ?? string.Empty)
        .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
        .Select(directory => Path.Combine(directory, command))
        .FirstOrDefault(File.Exists);

    /// <summary>
    /// The module's path: found by walking up from this program's folder (then from the working folder) to the
    /// repository's root, the folder holding <c>ThreadIterators.sln</c>, as the report's output folder is.
    /// </summary>
    private static string FindSource()
    {
        foreach (var start in new[] { AppContext.BaseDirectory, Directory.GetCurrentDirectory() })
        {
            for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, "ThreadIterators.sln")))
                {
                    var source = Path.Combine([directory.FullName, .. SourcePath]);
                    if (File.Exists(source))
                    {
                        return source;
                    }
                }
            }
        }

        throw new InvalidOperationException($"{Path.Combine(SourcePath)} not found above {AppContext.BaseDirectory} or {Directory.GetCurrentDirectory()}.");
    }

    /// <summary>Runs a program to its end, non-interactively; throws with its output if it fails or takes too long.</summary>
    private static async Task RunAsync(string program, IEnumerable<string> arguments, TimeSpan timeout)
    {
        var start = new ProcessStartInfo(program)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        start.Environment["DEBIAN_FRONTEND"] = "noninteractive";
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{program} did not start.");
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(timeout).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw new InvalidOperationException($"{program} {string.Join(' ', start.ArgumentList)} took more than {timeout}.");
        }

        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException(
                $"{program} {string.Join(' ', start.ArgumentList)} failed with exit code {process.ExitCode}:\n{await output.ConfigureAwait(false)}\n{await error.ConfigureAwait(false)}");
        }
    }
}
