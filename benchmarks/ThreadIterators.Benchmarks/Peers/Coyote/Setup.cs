using CoyoteEvent = Microsoft.Coyote.Actors.Event;

namespace ThreadIterators.Benchmarks.Peers.Coyote;

/// <summary>The event a Coyote test actor starts with: whether it runs the buggy program or its fix.</summary>
internal sealed class Setup(bool isFixed) : CoyoteEvent
{
    public bool IsFixed { get; } = isFixed;
}
