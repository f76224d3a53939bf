using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// Tells an actor where it sends: ring members and ping-pong players point at each other, so whichever is spawned first
/// cannot be given the other's PID at spawn. Sent once per actor, before any workload message.
/// </summary>
/// <param name="Next">The actor to send to.</param>
internal sealed record Link(PID Next);
