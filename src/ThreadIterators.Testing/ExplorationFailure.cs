namespace ThreadIterators.Testing;

/// <summary>What ended an explored run.</summary>
public enum ExplorationFailure
{
    /// <summary>Every thread ended without a fault: the run passed.</summary>
    None,

    /// <summary>A thread ended with an exception nothing observed (a failed assertion is one), or the test's own thread did.</summary>
    Exception,

    /// <summary>No thread could run, no timer was pending and nothing outside the scheduler was awaited: a deadlock.</summary>
    Deadlock,

    /// <summary>The run took more than <see cref="ExplorationOptions.MaxSteps"/> steps: a livelock, or a test too long for its bound.</summary>
    StepBound,

    /// <summary>Threads waited only on work outside the scheduler (a task, a token, a channel), which did not complete in <see cref="ExplorationOptions.OutsideWaitTimeout"/>.</summary>
    OutsideWait,

    /// <summary>
    /// Only work outside the scheduler (a task, a token, a channel) could move the run on, or a thread was woken from
    /// another OS thread, and the test had not declared such work (<see cref="ExplorationOptions.OutsideWork"/>): the run cannot
    /// decide when it completes.
    /// </summary>
    UndeclaredOutsideWork,
}
