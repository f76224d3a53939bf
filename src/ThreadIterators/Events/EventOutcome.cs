namespace ThreadIterators;

/// <summary>What happened when a green thread yielded an event or was resumed from one.</summary>
internal enum EventOutcome
{
    /// <summary>The event has completed; the thread's body goes on in the same turn.</summary>
    Continue,

    /// <summary>The thread is parked; the event will make it ready exactly once.</summary>
    Parked,

    /// <summary>The event faulted the thread (<see cref="GreenThread.PendingFault"/> holds why); the thread must end.</summary>
    Faulted,
}
