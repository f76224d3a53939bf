using System.Runtime.InteropServices;

namespace ThreadIterators;

/// <summary>
/// What other OS threads read about a worker when they wake a thread homed on it: whether it is listed idle. Padded
/// onto a cache line of its own, away from the fields the worker writes every turn (192 bytes: the flag at 64, so 64
/// bytes either side of it on any 64-byte line alignment; 128-byte padding, as in the run queue, measured no
/// different here and was not needed).
/// </summary>
[StructLayout(LayoutKind.Explicit, Size = 192)]
internal struct WorkerStatus
{
    /// <summary>1 while the worker is in the scheduler's idle list; written under that list's lock.</summary>
    [FieldOffset(64)]
    public int ListedIdle;
}
