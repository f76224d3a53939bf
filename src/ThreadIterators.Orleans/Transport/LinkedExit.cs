using System;
using Orleans;

namespace ThreadIterators.Orleans;

/// <summary>
/// The abnormal end of a thread linked to a process (<see cref="ProcessLink"/>), carried to the process through its
/// link from the thread's silo, in order with that silo's messages to it, as Erlang orders an exit signal with the
/// sender's messages. The process's grain stops the process instead of putting this into its inbox.
/// </summary>
[GenerateSerializer]
[Alias("ThreadIterators.Orleans.LinkedExit")]
internal sealed class LinkedExit
{
    /// <summary>Gets or sets what ended, and how, as the process's monitors will read it.</summary>
    [Id(0)]
    public string Detail { get; set; } = string.Empty;

    /// <summary>
    /// Gets or sets the incarnation of the process the thread was linked to, as its monitor's reply named it; empty
    /// if the thread ended before that reply came, when the exit is for whichever process holds the name.
    /// </summary>
    [Id(1)]
    public Guid Incarnation { get; set; }

    /// <summary>Whether this exit is for <paramref name="process"/>: not for a later process under the same name.</summary>
    internal bool IsFor(LocalProcess process) => Incarnation == Guid.Empty || Incarnation == process.Incarnation;

    public override string ToString() => Detail;
}
