using System;
using Orleans;

namespace ThreadIterators.Orleans;

/// <summary>The answer to a <see cref="DeliveryBatch"/>.</summary>
[GenerateSerializer]
[Alias("ThreadIterators.Orleans.DeliveryReceipt")]
internal sealed class DeliveryReceipt
{
    [Id(0)]
    public DeliveryStatus Status { get; set; }

    /// <summary>Gets or sets the incarnation of the process that took the batch.</summary>
    [Id(1)]
    public Guid Incarnation { get; set; }

    /// <summary>Gets or sets the indexes, in the batch, of messages the process's inbox cannot hold (another type); null if none. Each is below the first pending one.</summary>
    [Id(2)]
    public int[]? Refused { get; set; }

    /// <summary>Gets or sets the type of message the process receives, to name it in the refusal.</summary>
    [Id(3)]
    public string? MessageType { get; set; }

    /// <summary>
    /// Gets or sets how many messages at the batch's end were not taken, because the process's bounded inbox stayed
    /// full: the sender sends them again, with their numbers. 0 when the whole batch was handled.
    /// </summary>
    [Id(4)]
    public int Pending { get; set; }
}
