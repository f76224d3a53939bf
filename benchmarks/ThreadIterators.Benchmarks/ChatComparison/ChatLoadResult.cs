namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>What a chat load run measured and found.</summary>
internal sealed record ChatLoadResult
{
    public required ChatLoadOptions Options { get; init; }

    /// <summary>Gets the lines delivered to their receivers.</summary>
    public long Delivered { get; init; }

    /// <summary>Gets the lines the run expected to deliver: C × L × (R - 1) when C is a multiple of R.</summary>
    public long Expected { get; init; }

    /// <summary>Gets the seconds from the first line sent to the last received.</summary>
    public double Seconds { get; init; }

    public double LinesPerSecond => Seconds > 0 ? Delivered / Seconds : 0;

    public double P50Microseconds { get; init; }

    public double P99Microseconds { get; init; }

    public double P999Microseconds { get; init; }

    /// <summary>Gets the lines expected and never received.</summary>
    public long Lost { get; init; }

    /// <summary>Gets the lines received twice or in the wrong order for their sender, or from a sender not in the room.</summary>
    public long Misordered { get; init; }

    /// <summary>Gets the connections that failed to connect or join, or that the server closed or answered with an error.</summary>
    public long ConnectionErrors { get; init; }

    /// <summary>Gets the first few connection errors, described.</summary>
    public string[] Errors { get; init; } = [];

    /// <summary>Gets the server's resident memory before the connections, in bytes; 0 if not measured.</summary>
    public long ServerRssBefore { get; init; }

    /// <summary>Gets the server's resident memory with every connection open and joined, idle.</summary>
    public long ServerRssIdle { get; init; }

    /// <summary>Gets the server's resident memory right after the lines were delivered.</summary>
    public long ServerRssBusy { get; init; }

    /// <summary>Gets the server's peak resident memory (VmHWM).</summary>
    public long ServerRssPeak { get; init; }

    /// <summary>Gets the server's CPU time, all threads, user and system, while the connections opened and joined, in seconds; 0 if not measured.</summary>
    public double ServerCpuConnecting { get; init; }

    /// <summary>Gets the server's CPU time while the lines were sent and delivered, in seconds.</summary>
    public double ServerCpuDelivering { get; init; }

    /// <summary>Gets the server's CPU time per connection opened and joined, in microseconds.</summary>
    public double CpuMicrosecondsPerConnection => ServerCpuConnecting * 1e6 / Options.Connections;

    /// <summary>Gets the server's CPU time per line delivered, in microseconds (each line said is delivered R - 1 times).</summary>
    public double CpuMicrosecondsPerLine => Delivered > 0 ? ServerCpuDelivering * 1e6 / Delivered : 0;

    public double IdleBytesPerConnection => ServerRssIdle > 0 ? (double)(ServerRssIdle - ServerRssBefore) / Options.Connections : 0;

    public double BusyBytesPerConnection => ServerRssBusy > 0 ? (double)(ServerRssBusy - ServerRssBefore) / Options.Connections : 0;

    /// <summary>Gets a value indicating whether every line arrived once, in order, with no connection error.</summary>
    public bool Clean => Lost == 0 && Misordered == 0 && ConnectionErrors == 0;
}
