namespace ThreadIterators.Analyzers;

/// <summary>A blocking member TI0001 flags: how its message names it and what it suggests instead.</summary>
internal sealed class BlockingApi
{
    /// <summary>Creates the entry for one blocking member.</summary>
    public BlockingApi(string typeMetadataName, string member, string display, string advice, bool readsTask = false)
    {
        TypeMetadataName = typeMetadataName;
        Member = member;
        Display = display;
        Advice = advice;
        ReadsTask = readsTask;
    }

    /// <summary>Gets the metadata name of the type that declares the member, e.g. <c>System.Threading.Tasks.Task`1</c>.</summary>
    public string TypeMetadataName { get; }

    /// <summary>Gets the member's name; every overload of a method is meant.</summary>
    public string Member { get; }

    /// <summary>Gets the name the message gives the call, e.g. <c>Task.Result</c>.</summary>
    public string Display { get; }

    /// <summary>Gets the non-blocking alternative the message suggests, as the end of its sentence.</summary>
    public string Advice { get; }

    /// <summary>
    /// Gets a value indicating whether the member waits for the one task it is called on (<c>Result</c>,
    /// <c>Wait()</c>, an awaiter's <c>GetResult()</c>), and so returns at once once that task has completed.
    /// </summary>
    public bool ReadsTask { get; }
}
