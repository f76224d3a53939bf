namespace ThreadIterators;

/// <summary>
/// A request that the server of the mailbox it is asked through does not answer itself, but forwards: to another
/// process, another machine. An ask whose request implements this names <see cref="Destination"/> in the wait-for
/// graph, in its trace and in its errors, and draws no edge to the forwarding thread, which is not what the caller
/// waits for.
/// </summary>
public interface IForwardedRequest
{
    /// <summary>Gets where the request went, as the wait-for graph prints it, read when it is printed.</summary>
    string Destination { get; }
}
