using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>The Erlang side: the benchmark programs in <c>benchmarks/erlang</c>, compiled, and how to run them.</summary>
internal sealed class ErlangRuntime
{
    private readonly string _erl;
    private readonly string _ebin;

    private ErlangRuntime(string erl, string ebin, string version)
    {
        _erl = erl;
        _ebin = ebin;
        Version = version;
    }

    /// <summary>Gets the OTP release, ERTS version and emulator flavour (<c>jit</c> or <c>emu</c>), as the VM reports them.</summary>
    public string Version { get; }

    /// <summary>Gets the <c>erl</c> command.</summary>
    public string Erl => _erl;

    /// <summary>Gets the directory of the compiled modules.</summary>
    public string Ebin => _ebin;

    /// <summary>Compiles every module in <paramref name="sources"/> into <paramref name="ebin"/> and reads the VM's version.</summary>
    public static ErlangRuntime Compile(string erl, string erlc, string sources, string ebin)
    {
        var modules = Directory.GetFiles(sources, "*.erl").Order(StringComparer.Ordinal).ToList();
        if (modules.Count == 0)
        {
            throw new InvalidOperationException($"no Erlang modules in {sources}");
        }

        Directory.CreateDirectory(ebin);
        var compiled = ChildProcess.Run(erlc, ["+warnings_as_errors", "-o", ebin, .. modules], TimeSpan.FromMinutes(5));
        if (compiled.ExitCode != 0)
        {
            throw new InvalidOperationException($"erlc failed with exit code {compiled.ExitCode}:\n{string.Join('\n', compiled.Lines)}\n{compiled.Error}");
        }

        var probe = ChildProcess.Run(
            erl,
            ["-noshell", "-eval", "io:format(\"OTP ~s, ERTS ~s, ~s~n\", [erlang:system_info(otp_release), erlang:system_info(version), erlang:system_info(emu_flavor)]), halt()."],
            TimeSpan.FromMinutes(1));
        return new ErlangRuntime(erl, ebin, probe.Lines.Count > 0 ? probe.Lines[0] : "unknown");
    }

    /// <summary>Gets the command line that runs one case, as the report prints it.</summary>
    public static string CommandLine(ComparisonCase comparisonCase, int runs) =>
        string.Join(' ', Arguments(comparisonCase, runs, "<build dir>").Prepend("erl"));

    /// <summary>Runs <paramref name="comparisonCase"/> in a fresh VM: a warm-up, then <paramref name="runs"/> measured runs.</summary>
    public ChildProcess.Outcome Run(ComparisonCase comparisonCase, int runs, TimeSpan timeout) =>
        ChildProcess.Run(_erl, Arguments(comparisonCase, runs, _ebin), timeout);

    private static List<string> Arguments(ComparisonCase comparisonCase, int runs, string ebin)
    {
        var schedulers = comparisonCase.Workers.ToString(CultureInfo.InvariantCulture);
        return
        [
            "-noshell",
            "+S", $"{schedulers}:{schedulers}",
            "+P", comparisonCase.ProcessLimit.ToString(CultureInfo.InvariantCulture),
            "-pa", ebin,
            "-run", "bench", "main", .. comparisonCase.ErlangArguments(runs),
        ];
    }
}
