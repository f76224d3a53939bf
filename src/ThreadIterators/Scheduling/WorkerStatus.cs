using System.Runtime.InteropServices;

namespace ThreadIterators;

/// <summary>
/// What other OS threads read about a worker when they wake a thread homed on it: whether it is listed idle. Padded
/// onto a cache line of its own, away from the fields the worker writes every turn: the flag at 64 in 192 bytes, so at
/// least 64 bytes clear of anything else on either side. Guessed, as is every padding here.
/// </summary>
/// <remarks>Written under the idle list's lock; read by any thread without it.</remarks>
[StructLayout(LayoutKind.Explicit, Size = 192)]
internal struct WorkerStatus
{
    /// <summary>1 while the worker is in the scheduler's idle list; written under that list's lock.</summary>
    [FieldOffset(64)]
    public int ListedIdle;
}
