using System.Runtime.InteropServices;

namespace ThreadIterators;

/// <summary>
/// What other OS threads read about a worker when they wake a thread homed on it: whether it is looking for work,
/// and whether it is parked. Padded onto a cache line of its own, away from the fields the worker writes every turn.
/// </summary>
[StructLayout(LayoutKind.Explicit, Size = 192)]
internal struct WorkerStatus
{
    /// <summary>1 while the worker has found nothing to run (spinning, parking or parked); written by the worker.</summary>
    [FieldOffset(64)]
    public int Searching;

    /// <summary>1 while the worker is in the scheduler's idle list; written under the scheduler's lock.</summary>
    [FieldOffset(68)]
    public int Parked;
}
