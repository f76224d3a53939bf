namespace ThreadIterators.Supervision;

/// <summary>
/// When a <see cref="Supervisor"/> shuts itself down because its significant children (<see cref="ChildSpec.Significant"/>)
/// have ended by themselves (OTP's <c>auto_shutdown</c>). It then shuts its other children down, in reverse start
/// order, and its thread ends normally, as when its token is canceled.
/// </summary>
/// <remarks>
/// A child ends by itself when the supervisor does not restart it and did not shut it down: a temporary child however it
/// ends, a transient one when it ends normally. A child the supervisor shuts down or removes, or restarts, has not.
/// </remarks>
public enum AutoShutdown
{
    /// <summary>Never: the supervisor runs until its token is canceled or it gives up. The default, as OTP's.</summary>
    Never = 0,

    /// <summary>As soon as any significant child has ended by itself (OTP's <c>any_significant</c>).</summary>
    AnySignificant = 1,

    /// <summary>Once every significant child has ended by itself, or was removed (OTP's <c>all_significant</c>).</summary>
    AllSignificant = 2,
}
