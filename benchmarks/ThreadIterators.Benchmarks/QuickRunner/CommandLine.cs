using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>The quick runner's parsed command line.</summary>
internal sealed class CommandLine
{
    private long? _n;
    private long? _m;
    private long? _hops;

    /// <summary>Gets the workload named, or null for the comparison of all of them.</summary>
    public WorkloadSpec? Workload { get; private set; }

    /// <summary>Gets the worker counts the green threads run with.</summary>
    public IReadOnlyList<int> Workers { get; private set; } = [1, 2];

    /// <summary>Gets the implementations asked for, or null for all.</summary>
    public IReadOnlySet<string>? Implementations { get; private set; }

    /// <summary>Gets the number of measured runs per configuration.</summary>
    public int Runs { get; private set; } = 3;

    /// <summary>Gets a value indicating whether to print one JSON object per line.</summary>
    public bool Json { get; private set; }

    /// <summary>Gets the sizes: those on the command line, the others from <paramref name="defaults"/>.</summary>
    public RunOptions Sizes(RunOptions defaults) => new(_n ?? defaults.N, _m ?? defaults.M, _hops ?? defaults.Hops);

    public static bool TryParse(string[] args, IReadOnlyList<WorkloadSpec> catalogue, out CommandLine command, out string error)
    {
        command = new CommandLine();
        error = string.Empty;
        var i = args.Length > 0 && args[0] == "run" ? 1 : 0;
        for (; i < args.Length; i++)
        {
            var arg = args[i];
            string? value = i + 1 < args.Length ? args[i + 1] : null;
            switch (arg)
            {
                case "--json":
                    command.Json = true;
                    continue;
                case "--n" or "--m" or "--hops" or "--workers" or "--runs" when !long.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var number) || number < 1:
                    error = $"{arg} needs a positive whole number.";
                    return false;
                case "--n":
                    command._n = long.Parse(value!, CultureInfo.InvariantCulture);
                    break;
                case "--m":
                    command._m = long.Parse(value!, CultureInfo.InvariantCulture);
                    break;
                case "--hops":
                    command._hops = long.Parse(value!, CultureInfo.InvariantCulture);
                    break;
                case "--workers":
                    command.Workers = [int.Parse(value!, CultureInfo.InvariantCulture)];
                    break;
                case "--runs":
                    command.Runs = int.Parse(value!, CultureInfo.InvariantCulture);
                    break;
                case "--impl" when value is not null:
                    command.Implementations = value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).ToHashSet(StringComparer.OrdinalIgnoreCase);
                    break;
                default:
                    if (arg.StartsWith('-') || command.Workload is not null)
                    {
                        error = $"unknown argument '{arg}'.";
                        return false;
                    }

                    command.Workload = catalogue.FirstOrDefault(w => string.Equals(w.Name, arg, StringComparison.OrdinalIgnoreCase));
                    if (command.Workload is null)
                    {
                        error = $"unknown workload '{arg}'.";
                        return false;
                    }

                    continue;
            }

            i++;
        }

        var parsed = command;
        if (parsed.Workload is not null && parsed.Implementations is not null
            && !parsed.Workload.Implementations.Any(x => parsed.Implementations.Contains(x.Name)))
        {
            error = $"{parsed.Workload.Name} has no implementation named {string.Join(" or ", parsed.Implementations)}; it has {string.Join(", ", parsed.Workload.Implementations.Select(x => x.Name))}.";
            return false;
        }

        return true;
    }
}
