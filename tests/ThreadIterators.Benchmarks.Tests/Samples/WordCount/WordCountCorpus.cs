using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using WordCount;

namespace ThreadIterators.Tests;

/// <summary>A small MediaWiki dump of real English text for the word-count tests: the licence texts every Debian system has, one page per paragraph.</summary>
internal static class WordCountCorpus
{
    private static readonly Lazy<string> s_path = new(Build);

    /// <summary>Gets the dump's path; written once per test run.</summary>
    internal static string Path => s_path.Value;

    /// <summary>Gets the pages written to it.</summary>
    internal static IReadOnlyList<Page> Pages { get; } = MakePages();

    private static List<Page> MakePages()
    {
        const string licences = "/usr/share/common-licenses";
        IEnumerable<(string Name, string Text)> sources = Directory.Exists(licences)
            ? Directory.GetFiles(licences).Order(StringComparer.Ordinal).Take(6).Select(f => (System.IO.Path.GetFileName(f), File.ReadAllText(f)))
            : [("fallback", "It was the best of times, it was the worst of times, it was the age of wisdom.\n\nIt was the epoch of belief; it wasn't the season of Light.")];
        return [.. sources.SelectMany(source => source.Text.Split("\n\n", StringSplitOptions.RemoveEmptyEntries)
            .Select((paragraph, i) => new Page($"{source.Name} {i + 1}", paragraph)))
            .Take(400)];
    }

    private static string Build()
    {
        // One file for every run, replaced whole (written aside, then moved over), so runs leave nothing behind.
        var path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "threaditerators-tests-wiki.xml");
        var writing = $"{path}.{Environment.ProcessId}";
        WikiDumpWriter.Write(writing, "tests", Pages);
        File.Move(writing, path, overwrite: true);
        return path;
    }
}
