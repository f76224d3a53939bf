namespace ThreadIterators.Orleans;

/// <summary>A kind of process registered with <see cref="ThreadIteratorsClusterOptions.AddProcess{T}(string, System.Func{string, Mailbox{T}, System.Collections.Generic.IEnumerable{Event}})"/>: how to start one for a name.</summary>
internal abstract class ProcessKind
{
    protected ProcessKind(string name) => Name = name;

    internal string Name { get; }

    /// <summary>Starts a process named <paramref name="processName"/> on <paramref name="scheduler"/>.</summary>
    internal abstract LocalProcess Start(string processName, Scheduler scheduler, IProcessActivation activation);

    /// <summary>Gets the kind of a process name: the part before its first '/', or the whole name.</summary>
    internal static string Of(string processName)
    {
        var slash = processName.IndexOf('/', System.StringComparison.Ordinal);
        return slash < 0 ? processName : processName[..slash];
    }
}
