namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>How a connection of the load client behaves.</summary>
internal enum LoadRole
{
    /// <summary>Sends its lines and reads everything; its deliveries are counted and checked.</summary>
    WellBehaved,

    /// <summary>Joins, then never reads again (a small receive buffer), and sends nothing: the server must drop it or hold it bounded.</summary>
    Stalled,

    /// <summary>Joins, then when the lines start sends half a line and resets the connection.</summary>
    Vanishing,
}
