using System;
using System.Threading.Tasks;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// How one run's actors talk to the thread that started it, which is not an actor and so cannot receive a message:
/// the run's answer (or the exception that ended it), and the moment its last actor has stopped.
/// </summary>
internal sealed class RunOutcome
{
    private readonly TaskCompletionSource<long> _result = new();

    private readonly TaskCompletionSource _stopped = new();

    /// <summary>Gets the run's answer, completed by the <see cref="RunDriver"/>.</summary>
    public Task<long> Result => _result.Task;

    /// <summary>Gets a task that completes when the driver, and so every actor under it, has stopped.</summary>
    public Task Stopped => _stopped.Task;

    /// <summary>Gives the run's answer.</summary>
    public void Complete(long value) => _result.TrySetResult(value);

    /// <summary>Ends the run with an actor's exception, so the caller sees it rather than waiting for a timeout.</summary>
    public void Fail(Exception exception) => _result.TrySetException(exception);

    /// <summary>Records that the driver has stopped, which Akka.NET does only after all its children have.</summary>
    public void MarkStopped() => _stopped.TrySetResult();
}
