using System.Text.Json;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>One measured run of either side, read from the JSON line the quick runner or the Erlang driver prints.</summary>
/// <param name="Workload">The workload's name, or <c>footprint</c>.</param>
/// <param name="Implementation"><c>threaditerators</c> or <c>erlang</c>.</param>
/// <param name="Workers">OS threads: scheduler workers, or Erlang schedulers online.</param>
/// <param name="Parameters">The sizes as the side printed them; both sides must print the same text.</param>
/// <param name="ElapsedMs">Wall time of the run, timed inside the process.</param>
/// <param name="Value">Footprint: bytes per parked thread. Otherwise: nanoseconds per message.</param>
/// <param name="Ok">Whether the side verified its result.</param>
internal sealed record RunRecord(string Workload, string Implementation, int Workers, string Parameters, double ElapsedMs, double Value, bool Ok)
{
    /// <summary>Reads a workload run (<c>run</c> is a number, not <c>median</c>) or a footprint line.</summary>
    public static RunRecord Parse(string line)
    {
        using var json = JsonDocument.Parse(line);
        var root = json.RootElement;
        var workload = root.GetProperty("workload").GetString()!;
        var footprint = workload == ComparisonCase.Footprint;
        return new RunRecord(
            workload,
            root.GetProperty("implementation").GetString()!,
            root.GetProperty("workers").GetInt32(),
            footprint ? $"threads={root.GetProperty("threads").GetInt64()}" : root.GetProperty("parameters").GetString()!,
            footprint ? 0 : root.GetProperty("elapsed_ms").GetDouble(),
            root.GetProperty(footprint ? "bytes_per_parked_thread" : "ns_per_message").GetDouble(),
            root.GetProperty("ok").GetBoolean());
    }
}
