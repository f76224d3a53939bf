namespace ThreadIterators.Orleans;

/// <summary>What became of a <see cref="DeliveryBatch"/>.</summary>
internal enum DeliveryStatus
{
    /// <summary>
    /// Every message is in the process's inbox, or was there already (a retry), but those <see cref="DeliveryReceipt.Refused"/>
    /// names, and the last <see cref="DeliveryReceipt.Pending"/>, which found a bounded inbox full.
    /// </summary>
    Delivered,

    /// <summary>No process holds the name, and no kind of process is registered for it: every message is undeliverable.</summary>
    NoSuchProcess,

    /// <summary>
    /// A retry reached an incarnation its first attempt may not have: dropped, and undeliverable, so that nothing is
    /// taken twice.
    /// </summary>
    Lost,

    /// <summary>The activation is going away (its silo stops) and took nothing: send the batch again, unchanged.</summary>
    Retry,
}
