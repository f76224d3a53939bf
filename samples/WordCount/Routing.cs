namespace WordCount;

/// <summary>Which consumer a pushed page goes to.</summary>
public enum Routing
{
    /// <summary>Not a push variant.</summary>
    None,

    /// <summary>Each consumer in turn, each with its own mailbox.</summary>
    RoundRobin,

    /// <summary>The consumer whose mailbox holds the fewest pages.</summary>
    SmallestMailbox,

    /// <summary>Every consumer takes from one shared mailbox (work sharing).</summary>
    Balancing,
}
