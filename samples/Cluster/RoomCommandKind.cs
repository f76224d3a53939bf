namespace ThreadIterators.Samples.Cluster;

/// <summary>The kinds of <see cref="RoomCommand"/>.</summary>
public enum RoomCommandKind
{
    Join,
    Leave,
    Line,
}
