using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using Microsoft.Extensions.Logging;

namespace ThreadIterators.Hosting.Tests;

/// <summary>A logger provider that keeps every entry, with its structured fields, for a test to read.</summary>
internal sealed class CapturedLogs : ILoggerProvider
{
    public ConcurrentQueue<Entry> Entries { get; } = new();

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public void Dispose()
    {
    }

    /// <summary>Gets the package's entries (its categories start with "ThreadIterators") with event id <paramref name="id"/>.</summary>
    public IEnumerable<Entry> WithId(int id) => Entries.Where(e => e.Id == id && e.Category.StartsWith("ThreadIterators", StringComparison.Ordinal));

    internal sealed record Entry(string Category, LogLevel Level, int Id, string Message, IReadOnlyDictionary<string, object?> Fields, Exception? Exception);

    private sealed class Logger(CapturedLogs logs, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            var fields = state is IEnumerable<KeyValuePair<string, object?>> pairs
                ? pairs.ToDictionary(p => p.Key, p => p.Value)
                : new Dictionary<string, object?>();
            logs.Entries.Enqueue(new Entry(category, logLevel, eventId.Id, formatter(state, exception), fields, exception));
        }
    }
}
