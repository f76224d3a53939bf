using System;
using System.Collections.Generic;
using System.Linq;

namespace WordCount;

/// <summary>
/// How often each word occurs. A word is a run of letters, with apostrophes inside it ("don't"), lower-cased;
/// everything else (digits, punctuation, markup) separates words. One instance per consumer; merged at the end.
/// </summary>
public sealed class WordCounts
{
    private readonly Dictionary<string, int> _counts = new(StringComparer.Ordinal);

    /// <summary>A consumer's scratch space for lower-casing a word before it looks it up, so a known word allocates nothing.</summary>
    private char[] _word = new char[64];

    /// <summary>Gets the number of words counted.</summary>
    public long Total { get; private set; }

    /// <summary>Gets the number of pages counted.</summary>
    public int Pages { get; private set; }

    /// <summary>Gets the number of different words.</summary>
    public int Distinct => _counts.Count;

    /// <summary>Counts the words of one page.</summary>
    /// <param name="page">The page.</param>
    public void Add(Page page)
    {
        ArgumentNullException.ThrowIfNull(page);
        Pages++;
        var lookup = _counts.GetAlternateLookup<ReadOnlySpan<char>>();
        var text = page.Text.AsSpan();
        var length = 0;
        for (var i = 0; i <= text.Length; i++)
        {
            var c = i < text.Length ? text[i] : ' ';
            if (char.IsLetter(c) || (c == '\'' && length > 0 && i + 1 < text.Length && char.IsLetter(text[i + 1])))
            {
                if (length == _word.Length)
                {
                    Array.Resize(ref _word, _word.Length * 2);
                }

                _word[length++] = char.ToLowerInvariant(c);
                continue;
            }

            if (length > 0)
            {
                var word = _word.AsSpan(0, length);
                if (lookup.TryGetValue(word, out var count))
                {
                    lookup[word] = count + 1;
                }
                else
                {
                    _counts.Add(new string(word), 1);
                }

                Total++;
                length = 0;
            }
        }
    }

    /// <summary>Adds another consumer's counts to these.</summary>
    /// <param name="other">The other counts.</param>
    public void Merge(WordCounts other)
    {
        ArgumentNullException.ThrowIfNull(other);
        foreach (var (word, count) in other._counts)
        {
            _counts[word] = _counts.GetValueOrDefault(word) + count;
        }

        Total += other.Total;
        Pages += other.Pages;
    }

    /// <summary>Gets a value indicating whether <paramref name="other"/> has exactly the same count for every word.</summary>
    /// <param name="other">The counts to compare with.</param>
    /// <returns>True if both have the same words with the same counts and the same pages.</returns>
    public bool SameAs(WordCounts other)
    {
        ArgumentNullException.ThrowIfNull(other);
        return Pages == other.Pages && Total == other.Total && _counts.Count == other._counts.Count
            && _counts.All(pair => other._counts.TryGetValue(pair.Key, out var count) && count == pair.Value);
    }

    /// <summary>Gets the <paramref name="count"/> most frequent words, most frequent first (ties alphabetically).</summary>
    /// <param name="count">How many.</param>
    /// <returns>The words and their counts.</returns>
    public IReadOnlyList<KeyValuePair<string, int>> Top(int count) =>
        [.. _counts.OrderByDescending(pair => pair.Value).ThenBy(pair => pair.Key, StringComparer.Ordinal).Take(count)];

    /// <summary>Merges the counts of every consumer into one.</summary>
    /// <param name="parts">Each consumer's counts.</param>
    /// <returns>The merged counts.</returns>
    public static WordCounts MergeAll(IEnumerable<WordCounts> parts)
    {
        ArgumentNullException.ThrowIfNull(parts);
        var all = new WordCounts();
        foreach (var part in parts)
        {
            all.Merge(part);
        }

        return all;
    }
}
