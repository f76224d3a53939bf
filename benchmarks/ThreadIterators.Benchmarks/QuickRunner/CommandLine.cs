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
    private long? _actors;
    private long? _state;
    private long? _accesses;

    /// <summary>Gets the workload named, or null for the comparison of all of them.</summary>
    public WorkloadSpec? Workload { get; private set; }

    /// <summary>Gets the worker counts the green threads run with.</summary>
    public IReadOnlyList<int> Workers { get; private set; } = [1, 2];

    /// <summary>Gets the scheduling policies the green threads run with.</summary>
    public IReadOnlyList<SchedulingPolicy> Policies { get; private set; } = [Scheduler.DefaultPolicy];

    /// <summary>Gets a value indicating whether <c>--policy</c> was given.</summary>
    public bool PolicyGiven { get; private set; }

    /// <summary>Gets the implementations asked for, or null for all.</summary>
    public IReadOnlySet<string>? Implementations { get; private set; }

    /// <summary>Gets how long each configuration warms up before its measured runs.</summary>
    public int WarmUpMilliseconds { get; private set; } = Runner.WarmUpMilliseconds;

    /// <summary>Gets the number of measured runs per configuration.</summary>
    public int Runs { get; private set; } = 3;

    /// <summary>Gets a value indicating whether to print one JSON object per line.</summary>
    public bool Json { get; private set; }

    /// <summary>Gets the sizes: those on the command line, the others from <paramref name="defaults"/>.</summary>
    public RunOptions Sizes(RunOptions defaults) =>
        new(_n ?? defaults.N, _m ?? defaults.M, _hops ?? defaults.Hops, _actors ?? defaults.Actors, _state ?? defaults.State, _accesses ?? defaults.Accesses);

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
                case "--state":
                    if (!TryParseBytes(value, out var bytes) || bytes < sizeof(long))
                    {
                        error = "--state needs a size of at least 8 bytes, such as 64, 4KB or 3.2MB (KB = 1,000 bytes, as in the seed).";
                        return false;
                    }

                    command._state = bytes;
                    break;
                case "--policy":
                    if (!TryParsePolicies(value, out var policies))
                    {
                        error = $"--policy needs one or more of {string.Join(", ", PolicyNames.Keys)}, or all.";
                        return false;
                    }

                    command.Policies = policies;
                    command.PolicyGiven = true;
                    break;
                case "--warmup" when !int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var warmUp) || warmUp < 0:
                    error = "--warmup needs a whole number of milliseconds, 0 or more.";
                    return false;
                case "--warmup":
                    command.WarmUpMilliseconds = int.Parse(value!, CultureInfo.InvariantCulture);
                    break;
                case "--n" or "--m" or "--hops" or "--workers" or "--runs" or "--actors" or "--accesses" when !long.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var number) || number < 1:
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
                case "--actors":
                    command._actors = long.Parse(value!, CultureInfo.InvariantCulture);
                    break;
                case "--accesses":
                    command._accesses = long.Parse(value!, CultureInfo.InvariantCulture);
                    break;
                case "--workers":
                    command.Workers = [int.Parse(value!, CultureInfo.InvariantCulture)];
                    break;
                case "--runs":
                    command.Runs = int.Parse(value!, CultureInfo.InvariantCulture);
                    break;
                case "--tracing" when !TracingMode.TrySet(value):
                    error = "--tracing needs none, idle or traced.";
                    return false;
                case "--tracing":
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

    /// <summary>The names <c>--policy</c> takes.</summary>
    public static IReadOnlyDictionary<string, SchedulingPolicy> PolicyNames { get; } = new Dictionary<string, SchedulingPolicy>(StringComparer.OrdinalIgnoreCase)
    {
        ["workstealing"] = SchedulingPolicy.WorkStealing,
        ["softaffinity"] = SchedulingPolicy.SoftAffinity,
        ["dedicated"] = SchedulingPolicy.Dedicated,
        ["shared"] = SchedulingPolicy.SharedQueue,
    };

    /// <summary>The name <c>--policy</c> gives <paramref name="policy"/>.</summary>
    public static string NameOf(SchedulingPolicy policy) => PolicyNames.First(p => p.Value == policy).Key;

    internal static bool TryParsePolicies(string? value, out IReadOnlyList<SchedulingPolicy> policies)
    {
        policies = [];
        if (value is null)
        {
            return false;
        }

        if (string.Equals(value, "all", StringComparison.OrdinalIgnoreCase))
        {
            policies = [.. PolicyNames.Values];
            return true;
        }

        var list = new List<SchedulingPolicy>();
        foreach (var name in value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (!PolicyNames.TryGetValue(name, out var policy))
            {
                return false;
            }

            list.Add(policy);
        }

        policies = list;
        return list.Count > 0;
    }

    /// <summary>Parses a size in bytes: a number with an optional B, KB or MB (powers of 1,000).</summary>
    private static bool TryParseBytes(string? value, out long bytes)
    {
        bytes = 0;
        if (value is null)
        {
            return false;
        }

        var text = value.Trim().ToUpperInvariant();
        var scale = 1m;
        foreach (var (suffix, factor) in new[] { ("KB", 1_000m), ("MB", 1_000_000m), ("B", 1m) })
        {
            if (text.EndsWith(suffix, StringComparison.Ordinal))
            {
                text = text[..^suffix.Length];
                scale = factor;
                break;
            }
        }

        if (!decimal.TryParse(text, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var number) || number * scale > long.MaxValue)
        {
            return false;
        }

        bytes = (long)(number * scale);
        return bytes * 1m == number * scale;
    }
}
