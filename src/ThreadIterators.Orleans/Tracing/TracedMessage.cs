using Orleans;

namespace ThreadIterators.Orleans;

/// <summary>
/// A message carried to another silo with its sender's trace: the W3C <c>traceparent</c> and <c>tracestate</c> of the
/// send's span. Made only inside a trace while the <c>ThreadIterators</c> activity source has a listener
/// (<see cref="ClusterTracing"/>); every other message is carried as it is.
/// </summary>
[GenerateSerializer]
[Alias("ThreadIterators.Orleans.TracedMessage")]
internal sealed class TracedMessage
{
    /// <summary>Gets or sets the message.</summary>
    [Id(0)]
    public object? Message { get; set; }

    /// <summary>Gets or sets the send span's <c>traceparent</c>.</summary>
    [Id(1)]
    public string TraceParent { get; set; } = string.Empty;

    /// <summary>Gets or sets the send span's <c>tracestate</c>, if any.</summary>
    [Id(2)]
    public string? TraceState { get; set; }
}
