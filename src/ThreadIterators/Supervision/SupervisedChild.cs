using System.Diagnostics;

namespace ThreadIterators.Supervision;

/// <summary>One child of a <see cref="Supervisor"/>, as <see cref="Supervisor.Children"/> saw it (OTP's <c>which_children</c>): a snapshot.</summary>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class SupervisedChild
{
    internal SupervisedChild(ChildSpec spec, GreenThread? thread, int restarts)
    {
        Spec = spec;
        Thread = thread;
        Restarts = restarts;
    }

    /// <summary>Gets the child's id.</summary>
    public string Id => Spec.Id;

    /// <summary>Gets the spec the child was started from.</summary>
    public ChildSpec Spec { get; }

    /// <summary>
    /// Gets the thread running the child, or null if none was: it is waiting out a restart backoff, or it is a
    /// transient child that ended normally.
    /// </summary>
    public GreenThread? Thread { get; }

    /// <summary>Gets how many times the child has been restarted by this run of the supervisor.</summary>
    public int Restarts { get; }

    /// <inheritdoc/>
    public override string ToString() => $"'{Id}': {(Thread is null ? "not running" : Thread.ToString())}, {Restarts} restart(s)";
}
