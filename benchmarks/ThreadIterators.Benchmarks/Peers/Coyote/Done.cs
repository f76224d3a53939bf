using CoyoteEvent = Microsoft.Coyote.Actors.Event;

namespace ThreadIterators.Benchmarks.Peers.Coyote;

/// <summary>An actor tells the test actor it has finished: the Coyote counterpart of joining a green thread.</summary>
internal sealed class Done : CoyoteEvent
{
}
