namespace ThreadIterators.Orleans;

/// <summary>The answer to a spawn's claim of a name (<see cref="IProcessGrain.Claim"/>).</summary>
internal enum ClaimOutcome
{
    /// <summary>The activation runs the spawn.</summary>
    Claimed,

    /// <summary>Another process holds the name.</summary>
    Held,

    /// <summary>The name is free, but its activation was on another silo, and is moving to the spawner's: claim again.</summary>
    Moving,
}
