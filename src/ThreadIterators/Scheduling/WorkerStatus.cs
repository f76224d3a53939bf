using System.Runtime.InteropServices;

namespace ThreadIterators;

/// <summary>
/// What other OS threads read about a worker when they wake a thread homed on it: whether it is parked. Padded onto
/// a cache line of its own, away from the fields the worker writes every turn.
/// </summary>
[StructLayout(LayoutKind.Explicit, Size = 192)]
internal struct WorkerStatus
{
    /// <summary>1 while the worker is in the scheduler's idle list; written under the scheduler's lock.</summary>
    [FieldOffset(64)]
    public int Parked;
}
