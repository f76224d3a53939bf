using System.Threading;

namespace ThreadIterators.Supervision;

/// <summary>A supervisor's record of one child across its restarts. Owned by the supervisor's thread; <see cref="Thread"/> is also read by <see cref="Supervisor.Children"/> under the supervisor's lock.</summary>
internal sealed class ChildSlot
{
    internal ChildSlot(ChildSpec spec, string threadName)
    {
        Spec = spec;
        ThreadName = threadName;
    }

    internal ChildSpec Spec { get; }

    /// <summary>The name each of the child's threads gets, made once.</summary>
    internal string ThreadName { get; }

    /// <summary>The running thread, or null. Written under the supervisor's lock.</summary>
    internal GreenThread? Thread { get; set; }

    /// <summary>The watch on <see cref="Thread"/>, into the supervisor's exits mailbox.</summary>
    internal ThreadWatch? Watch { get; set; }

    /// <summary>The source of the token given to a body that takes one; reused while never canceled.</summary>
    internal CancellationTokenSource? Stopping { get; set; }

    /// <summary>When <see cref="Thread"/> was started, in the scheduler's time provider's timestamps.</summary>
    internal long StartedAt { get; set; }

    /// <summary>Restarts made by this run of the supervisor.</summary>
    internal int Restarts { get; set; }

    /// <summary>Restarts in a row, for the backoff: back to 0 once a run lasts the backoff's reset time.</summary>
    internal int InARow { get; set; }

    /// <summary>The delayed restart this child waits for, or null.</summary>
    internal PendingRestart? Pending { get; set; }

    /// <summary>Removed from the supervisor: a temporary child that ended, or a child removed by a command.</summary>
    internal bool Removed { get; set; }
}
