using System;
using Orleans;

namespace ThreadIterators.Orleans;

/// <summary>
/// Messages one silo sends one process in one grain call, in the order they were sent, numbered from
/// <see cref="FirstSequence"/> on the sending link, so that the receiver keeps each once.
/// </summary>
[GenerateSerializer]
[Alias("ThreadIterators.Orleans.DeliveryBatch")]
internal sealed class DeliveryBatch
{
    /// <summary>Gets or sets the sending link: one per sending silo (or client) and process name, for the sender's lifetime.</summary>
    [Id(0)]
    public Guid Link { get; set; }

    /// <summary>Gets or sets the link's number of the first message.</summary>
    [Id(1)]
    public long FirstSequence { get; set; }

    /// <summary>Gets or sets the messages.</summary>
    [Id(2)]
    public object?[] Messages { get; set; } = [];

    /// <summary>
    /// Gets or sets the incarnation an earlier attempt of this batch may have reached, on a retry; empty on a first
    /// attempt. A different incarnation drops a retried batch rather than risk taking messages twice.
    /// </summary>
    [Id(3)]
    public Guid RetryOf { get; set; }

    /// <summary>Gets or sets whether this is a retry of an attempt whose outcome the sender did not learn.</summary>
    [Id(4)]
    public bool IsRetry { get; set; }
}
