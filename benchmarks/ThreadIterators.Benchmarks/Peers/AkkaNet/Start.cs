namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// Tells an actor that sends of its own accord (a producer, the counting sender, the serving ping-pong player) to
/// begin. A message rather than work in <c>PreStart</c>, so the actor is started and its peers created before it
/// sends. It carries nothing, so one instance serves every run.
/// </summary>
internal sealed class Start
{
    private Start()
    {
    }

    /// <summary>Gets the one instance.</summary>
    public static Start Instance { get; } = new();
}
