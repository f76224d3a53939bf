namespace ThreadIterators.Orleans;

/// <summary>Why a monitored process is gone; see <see cref="ProcessDown"/>.</summary>
public enum ProcessExitReason
{
    /// <summary>Its body returned: Erlang's <c>normal</c>.</summary>
    Normal,

    /// <summary>Its body threw; <see cref="ProcessDown.Detail"/> names the exception.</summary>
    Faulted,

    /// <summary>It was stopped: by <see cref="GreenThread.Stop"/>, by its silo's stop, or by Orleans moving its grain.</summary>
    Stopped,

    /// <summary>No process held the name when the monitor was set: Erlang's <c>noproc</c>.</summary>
    NoProcess,

    /// <summary>
    /// The silo it ran on left the cluster, as Orleans' membership declared it dead: Erlang's <c>noconnection</c>. The
    /// process may have gone on for a while, or its last messages may have been lost; nothing more is known.
    /// </summary>
    NodeDown,
}
