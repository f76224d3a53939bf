using System;
using ThreadIterators;

namespace ThreadIterators.Samples.Supervision;

/// <summary>The job runner's settings; <see cref="Parse"/> reads them from the command line.</summary>
internal sealed record JobRunnerOptions
{
    /// <summary>Gets the number of jobs.</summary>
    public int Jobs { get; init; } = 2_000;

    /// <summary>Gets the number of fetchers: green threads under the supervisor, each fetching one job at a time.</summary>
    public int Fetchers { get; init; } = 16;

    /// <summary>Gets the OS threads of the scheduler.</summary>
    public int Workers { get; init; } = Environment.ProcessorCount;

    /// <summary>Gets where the scheduler runs ready threads.</summary>
    public SchedulingPolicy Policy { get; init; } = Scheduler.DefaultPolicy;

    /// <summary>Gets how long a job's fetch may take before it counts as timed out and is cancelled.</summary>
    public TimeSpan JobTimeout { get; init; } = TimeSpan.FromMilliseconds(250);

    /// <summary>Gets the percentage of jobs that crash their fetcher.</summary>
    public double CrashPercent { get; init; } = 1;

    /// <summary>Gets the percentage of jobs the server answers too late (four times the timeout).</summary>
    public double SlowPercent { get; init; } = 1;

    /// <summary>Gets the seed of the jobs' random choices, so a run can be repeated.</summary>
    public int Seed { get; init; } = 1;

    /// <summary>Reads <c>--jobs N --fetchers N --workers N --policy P --timeout-ms N --crash-percent P --slow-percent P --seed N</c>.</summary>
    public static JobRunnerOptions Parse(string[] args)
    {
        var options = new JobRunnerOptions();
        for (var i = 0; i < args.Length; i++)
        {
            var value = i + 1 < args.Length ? args[i + 1] : throw new ArgumentException($"{args[i]} needs a value.");
            options = args[i] switch
            {
                "--jobs" => options with { Jobs = Positive(args[i], value) },
                "--fetchers" => options with { Fetchers = Positive(args[i], value) },
                "--workers" => options with { Workers = Positive(args[i], value) },
                "--policy" => options with { Policy = Enum.TryParse<SchedulingPolicy>(value, ignoreCase: true, out var policy) && Enum.IsDefined(policy) ? policy : throw new ArgumentException($"--policy must be one of {string.Join(", ", Enum.GetNames<SchedulingPolicy>())}, not '{value}'.") },
                "--timeout-ms" => options with { JobTimeout = TimeSpan.FromMilliseconds(Positive(args[i], value)) },
                "--crash-percent" => options with { CrashPercent = Percent(args[i], value) },
                "--slow-percent" => options with { SlowPercent = Percent(args[i], value) },
                "--seed" => options with { Seed = int.TryParse(value, System.Globalization.CultureInfo.InvariantCulture, out var seed) ? seed : throw new ArgumentException($"--seed must be a whole number, not '{value}'.") },
                _ => throw new ArgumentException($"Unknown option {args[i]}; the options are --jobs, --fetchers, --workers, --policy, --timeout-ms, --crash-percent, --slow-percent and --seed."),
            };
            i++;
        }

        return options;
    }

    private static int Positive(string name, string value) =>
        int.TryParse(value, System.Globalization.CultureInfo.InvariantCulture, out var number) && number > 0 ? number : throw new ArgumentException($"{name} must be a positive whole number, not '{value}'.");

    private static double Percent(string name, string value) =>
        double.TryParse(value, System.Globalization.CultureInfo.InvariantCulture, out var number) && number is >= 0 and <= 100 ? number : throw new ArgumentException($"{name} must be a percentage from 0 to 100, not '{value}'.");
}
