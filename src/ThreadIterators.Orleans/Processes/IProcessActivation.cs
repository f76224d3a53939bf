namespace ThreadIterators.Orleans;

/// <summary>The grain activation that holds a process: told of the process's end, from the ending thread's worker.</summary>
internal interface IProcessActivation
{
    /// <summary>The process's thread is ending (its body's <c>finally</c> block runs); any thread, never blocks.</summary>
    void ProcessEnded(LocalProcess process);
}
