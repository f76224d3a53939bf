namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// An increment of the counting actor. Every increment is by one, so a single immutable instance is sent N times and
/// the increments allocate nothing.
/// </summary>
/// <param name="Amount">What the counter adds.</param>
internal sealed record Increment(long Amount)
{
    /// <summary>The increment the sender sends, every time.</summary>
    public static readonly Increment One = new(1);
}
