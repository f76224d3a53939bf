using System.Collections.Generic;
using System.Linq;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>One server at one size: its runs and their medians.</summary>
internal sealed class ChatCompareResult(string server, ChatLoadOptions load, IReadOnlyList<ChatLoadResult> runs)
{
    public string Server { get; } = server;

    public ChatLoadOptions Load { get; } = load;

    public IReadOnlyList<ChatLoadResult> Runs { get; } = runs;

    public bool Clean => Runs.All(r => r.Clean);

    public double LinesPerSecond => Median(r => r.LinesPerSecond);

    public double P50 => Median(r => r.P50Microseconds);

    public double P99 => Median(r => r.P99Microseconds);

    public double P999 => Median(r => r.P999Microseconds);

    public double IdleBytesPerConnection => Median(r => r.IdleBytesPerConnection);

    public double BusyBytesPerConnection => Median(r => r.BusyBytesPerConnection);

    public double CpuMicrosecondsPerConnection => Median(r => r.CpuMicrosecondsPerConnection);

    public double CpuMicrosecondsPerLine => Median(r => r.CpuMicrosecondsPerLine);

    public double PeakRss => Median(r => r.ServerRssPeak);

    private double Median(System.Func<ChatLoadResult, double> value)
    {
        var sorted = Runs.Select(value).Order().ToList();
        return sorted.Count == 0 ? double.NaN : sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
    }
}
