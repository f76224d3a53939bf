namespace ThreadIterators.Samples.Chat;

/// <summary>The kinds of <see cref="RoomMessage"/>.</summary>
internal enum RoomMessageKind
{
    Join,
    Leave,
    Line,
}
