using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>Finds the programs the comparison needs and, running as root on Debian, installs the packages that hold them.</summary>
internal static class DebianTools
{
    /// <summary>
    /// Returns the full path of each command, installing the missing ones' packages with apt-get when running as
    /// root (a package may be several, separated by spaces). Otherwise a missing command is an error that says
    /// which packages to install.
    /// </summary>
    public static IReadOnlyDictionary<string, string> Require(IReadOnlyList<(string Command, string Package)> tools, Action<string> progress)
    {
        var missing = tools.Where(t => Find(t.Command) is null).ToList();
        if (missing.Count > 0)
        {
            var packages = missing.SelectMany(t => t.Package.Split(' ')).Distinct().ToList();
            var aptGet = Find("apt-get");
            if (Environment.UserName != "root" || aptGet is null)
            {
                throw new InvalidOperationException(
                    $"{string.Join(", ", missing.Select(t => t.Command))} not found on PATH. On Debian or Ubuntu: sudo apt-get install {string.Join(' ', packages)}");
            }

            progress($"installing Debian packages: {string.Join(' ', packages)}");
            Apt(aptGet, ["update"]);
            Apt(aptGet, ["install", "-y", "--no-install-recommends", .. packages]);
        }

        return tools.ToDictionary(
            t => t.Command,
            t => Find(t.Command) ?? throw new InvalidOperationException($"{t.Command} is still not on PATH after installing {t.Package}."));
    }

    /// <summary>The first executable file named <paramref name="command"/> on PATH, or null.</summary>
    public static string? Find(string command) => (Environment.GetEnvironmentVariable("PATH") ?? string.Empty)
        .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
        .Select(directory => Path.Combine(directory, command))
        .FirstOrDefault(File.Exists);

    private static void Apt(string aptGet, List<string> arguments)
    {
        var outcome = ChildProcess.Run(aptGet, arguments, TimeSpan.FromMinutes(10), [("DEBIAN_FRONTEND", "noninteractive")]);
        if (outcome.ExitCode != 0)
        {
            throw new InvalidOperationException($"apt-get {string.Join(' ', arguments)} failed with exit code {outcome.ExitCode}:\n{outcome.Error}");
        }
    }
}
