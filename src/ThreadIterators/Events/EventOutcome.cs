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

    /// <summary>
    /// A sub-body call (<see cref="Event.Call(System.Collections.Generic.IEnumerable{Event})"/>) has put the thread's call
    /// stack in place of its body; the worker steps that from now on, in the same turn.
    /// </summary>
    Called,

    /// <summary>
    /// A stopped thread's deferred park completed at once (<see cref="DeferredParkEvent"/>): the body gets the event's
    /// result, and the stop ends the thread at its next yield.
    /// </summary>
    Delivered,
}
