using System;
using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace ThreadIterators.Hosting;

/// <summary>
/// Reads <see cref="ThreadIteratorsHostOptions"/> from a configuration section, key by key, without reflection, so the
/// package stays trimmable and AOT-compatible. A value that does not parse throws, naming its key and value.
/// </summary>
internal static class OptionsBinder
{
    internal static void Bind(IConfiguration section, ThreadIteratorsHostOptions options)
    {
        options.Name = section[nameof(options.Name)] ?? options.Name;
        options.WorkerCount = Read(section, nameof(options.WorkerCount), options.WorkerCount, static s => int.Parse(s, NumberStyles.Integer, CultureInfo.InvariantCulture));
        options.Policy = Read(section, nameof(options.Policy), options.Policy, static s => Enum.Parse<SchedulingPolicy>(s, ignoreCase: true));
        options.LongTurnThreshold = Read(section, nameof(options.LongTurnThreshold), options.LongTurnThreshold, ParseTime);
        options.DrainTimeout = Read(section, nameof(options.DrainTimeout), options.DrainTimeout, ParseTime);
        options.MaxRestarts = Read(section, nameof(options.MaxRestarts), options.MaxRestarts, static s => int.Parse(s, NumberStyles.Integer, CultureInfo.InvariantCulture));
        options.RestartPeriod = Read(section, nameof(options.RestartPeriod), options.RestartPeriod, ParseTime);
        options.DeadLettersLoggedPerMinute = Read(section, nameof(options.DeadLettersLoggedPerMinute), options.DeadLettersLoggedPerMinute, static s => int.Parse(s, NumberStyles.Integer, CultureInfo.InvariantCulture));
    }

    private static T Read<T>(IConfiguration section, string key, T current, Func<string, T> parse)
    {
        if (section[key] is not { } text)
        {
            return current;
        }

        try
        {
            return parse(text.Trim());
        }
        catch (Exception exception) when (exception is FormatException or OverflowException or ArgumentException)
        {
            var path = section is IConfigurationSection named ? $"{named.Path}:{key}" : key;
            throw new InvalidOperationException($"The configuration value {path} = \"{text}\" is not a valid {typeof(T).Name}: {exception.Message}", exception);
        }
    }

    private static TimeSpan ParseTime(string text) => TimeSpan.Parse(text, CultureInfo.InvariantCulture);
}
