namespace ThreadIterators.Orleans;

/// <summary>The monitor an <see cref="AskTable"/> keeps on a process while asks of it wait, and how many wait.</summary>
internal sealed class AskWatch
{
    internal ProcessMonitor? Monitor { get; set; }

    internal int Pending { get; set; }

    /// <summary>Gets or sets whether the monitor was set again after a first answer of no process (step 4 of AskTable.cs).</summary>
    internal bool Rearmed { get; set; }
}
