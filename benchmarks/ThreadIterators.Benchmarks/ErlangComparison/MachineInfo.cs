using System;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>What the report says about the machine: read from /proc and /etc/os-release where they exist.</summary>
internal static class MachineInfo
{
    /// <summary>Gets the processor model and core count.</summary>
    public static string Processor => $"{Field("/proc/cpuinfo", "model name") ?? RuntimeInformation.ProcessArchitecture.ToString()}, {Environment.ProcessorCount} cores";

    /// <summary>Gets the installed memory.</summary>
    public static string Memory => Field("/proc/meminfo", "MemTotal") is { } total && long.TryParse(total.Split(' ')[0], out var kb)
        ? $"{kb / (1024.0 * 1024):F0} GiB"
        : "unknown";

    /// <summary>Gets the operating system and kernel.</summary>
    public static string OperatingSystem
    {
        get
        {
            var name = File.Exists("/etc/os-release")
                ? File.ReadLines("/etc/os-release").FirstOrDefault(l => l.StartsWith("PRETTY_NAME=", StringComparison.Ordinal))?["PRETTY_NAME=".Length..].Trim('"')
                : null;
            var kernel = File.Exists("/proc/sys/kernel/osrelease") ? File.ReadAllText("/proc/sys/kernel/osrelease").Trim() : null;
            return $"{name ?? RuntimeInformation.OSDescription}{(kernel is null ? string.Empty : $", kernel {kernel}")}";
        }
    }

    /// <summary>Gets the Debian package version of <paramref name="package"/>, or null where dpkg does not know it.</summary>
    public static string? DebianPackageVersion(string package)
    {
        if (DebianTools.Find("dpkg-query") is not { } dpkg)
        {
            return null;
        }

        var outcome = ChildProcess.Run(dpkg, ["-W", "-f=${Version}", package], TimeSpan.FromMinutes(1));
        return outcome.ExitCode == 0 && outcome.Lines.Count > 0 ? outcome.Lines[0] : null;
    }

    private static string? Field(string file, string name) => File.Exists(file)
        ? File.ReadLines(file).Where(l => l.StartsWith(name, StringComparison.Ordinal)).Select(l => l[(l.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim()).FirstOrDefault()
        : null;
}
