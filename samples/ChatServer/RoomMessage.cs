namespace ThreadIterators.Samples.Chat;

/// <summary>What a room's green thread receives: a member joins or leaves, or a member said a line.</summary>
internal readonly record struct RoomMessage(RoomMessageKind Kind, Connection From, string? Line = null);
