namespace ThreadIterators.Benchmarks.Suites;

/// <summary>One cell of the cache-affinity grid, shown in BenchmarkDotNet's tables as its three sizes.</summary>
/// <param name="Actors">Actors.</param>
/// <param name="State">Bytes of private state per actor.</param>
/// <param name="Accesses">Random reads and writes of the state per message.</param>
public sealed record CacheCell(int Actors, long State, int Accesses)
{
    /// <summary>Reads <c>actors/bytes/accesses</c>, as <c>24/32000/100</c>.</summary>
    public static CacheCell Parse(string text)
    {
        var parts = text.Split('/');
        return parts.Length == 3
            && int.TryParse(parts[0], System.Globalization.CultureInfo.InvariantCulture, out var actors) && actors > 0
            && long.TryParse(parts[1], System.Globalization.CultureInfo.InvariantCulture, out var state) && state >= sizeof(long)
            && int.TryParse(parts[2], System.Globalization.CultureInfo.InvariantCulture, out var accesses) && accesses >= 0
            ? new CacheCell(actors, state, accesses)
            : throw new System.FormatException($"CACHEAFFINITY_CELLS: '{text}' is not actors/bytes/accesses, such as 24/32000/100.");
    }

    public override string ToString() => $"A={Actors} S={State} K={Accesses}";
}
