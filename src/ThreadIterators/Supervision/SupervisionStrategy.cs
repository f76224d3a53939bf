namespace ThreadIterators.Supervision;

/// <summary>Which children a <see cref="Supervisor"/> restarts when one of them must be restarted (OTP's strategies).</summary>
public enum SupervisionStrategy
{
    /// <summary>Only the child that ended is restarted (OTP's <c>one_for_one</c>, Akka.NET's <c>OneForOneStrategy</c>).</summary>
    OneForOne = 0,

    /// <summary>
    /// Every child is shut down, in reverse start order, and all are started again in start order (OTP's
    /// <c>one_for_all</c>, Akka.NET's <c>AllForOneStrategy</c>): for children that cannot work without each other.
    /// </summary>
    OneForAll = 1,

    /// <summary>
    /// The children started after the one that ended are shut down, in reverse start order, and it and they are started
    /// again in start order (OTP's <c>rest_for_one</c>): for children that depend on those started before them.
    /// </summary>
    RestForOne = 2,
}
