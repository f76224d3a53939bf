namespace ThreadIterators.Supervision;

/// <summary>When a <see cref="Supervisor"/> restarts a child that ended (OTP's restart types).</summary>
public enum RestartType
{
    /// <summary>Always: however the child ended, even normally. For servers that must always run.</summary>
    Permanent = 0,

    /// <summary>
    /// Only after an abnormal end (<see cref="ThreadOutcome.Faulted"/> or <see cref="ThreadOutcome.Canceled"/>); after a
    /// normal end the child stays in the supervisor, not running. For jobs that must finish.
    /// </summary>
    Transient = 1,

    /// <summary>
    /// Never, and the child is removed from the supervisor when it ends, however it ends, also when a sibling's
    /// restart shut it down (as OTP does). For jobs best left undone if they fail.
    /// </summary>
    Temporary = 2,
}
