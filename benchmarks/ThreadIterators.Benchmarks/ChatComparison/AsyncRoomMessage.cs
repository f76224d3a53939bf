using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>What a room's task reads from its channel: a member joins or leaves, or a member said a line.</summary>
internal readonly record struct AsyncRoomMessage(RoomMessageKind Kind, AsyncConnection From, string? Line = null);
