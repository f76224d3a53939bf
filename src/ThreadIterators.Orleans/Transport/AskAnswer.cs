using System;
using Orleans;

namespace ThreadIterators.Orleans;

/// <summary>A notification: the answer to an ask, a value or a failure, from the process that was asked.</summary>
[GenerateSerializer]
[Alias("ThreadIterators.Orleans.AskAnswer")]
internal sealed class AskAnswer
{
    [Id(0)]
    public Guid Ask { get; set; }

    [Id(1)]
    public object? Value { get; set; }

    /// <summary>Gets or sets the failure's exception type, if the process failed the ask; null for a value.</summary>
    [Id(2)]
    public string? FailureType { get; set; }

    [Id(3)]
    public string? FailureMessage { get; set; }
}
