using System.Collections.Generic;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;

namespace ThreadIterators.Analyzers;

/// <summary>
/// The blocking members TI0001 knows, resolved against one compilation: the well-known waits of the task library,
/// of System.Threading and of ThreadIterators itself. A short list on purpose: each entry blocks until something else
/// happens, which is what stalls a worker; a <c>lock</c>, held briefly, is not on it.
/// </summary>
internal sealed class BlockingApiTable
{
    /// <summary>What the message suggests for a wait on a task.</summary>
    private const string YieldTask = "yield task.AsEvent() instead";

    /// <summary>What the message suggests for reading a task's result.</summary>
    private const string YieldTaskThenRead = "yield task.AsEvent() instead and read the event's result";

    /// <summary>What the message suggests for a wait on a synchronization primitive.</summary>
    private const string SignalOrRunBlocking = "signal the green thread through a mailbox instead, or yield TaskEvent.RunBlocking(...) to wait on the thread pool";

    /// <summary>Every entry, whether or not the compilation references its type.</summary>
    private static readonly ImmutableArray<BlockingApi> s_all = ImmutableArray.Create(
        new BlockingApi("System.Threading.Tasks.Task", "Wait", "Task.Wait", YieldTask, readsTask: true),
        new BlockingApi("System.Threading.Tasks.Task", "WaitAll", "Task.WaitAll", "yield Task.WhenAll(...).AsEvent() instead"),
        new BlockingApi("System.Threading.Tasks.Task", "WaitAny", "Task.WaitAny", "yield Task.WhenAny(...).AsEvent() instead"),
        new BlockingApi("System.Threading.Tasks.Task`1", "Result", "Task.Result", YieldTaskThenRead, readsTask: true),
        new BlockingApi("System.Threading.Tasks.ValueTask`1", "Result", "ValueTask.Result", YieldTaskThenRead, readsTask: true),
        new BlockingApi("System.Runtime.CompilerServices.TaskAwaiter", "GetResult", "GetAwaiter().GetResult()", YieldTaskThenRead, readsTask: true),
        new BlockingApi("System.Runtime.CompilerServices.TaskAwaiter`1", "GetResult", "GetAwaiter().GetResult()", YieldTaskThenRead, readsTask: true),
        new BlockingApi("System.Runtime.CompilerServices.ValueTaskAwaiter", "GetResult", "GetAwaiter().GetResult()", YieldTaskThenRead, readsTask: true),
        new BlockingApi("System.Runtime.CompilerServices.ValueTaskAwaiter`1", "GetResult", "GetAwaiter().GetResult()", YieldTaskThenRead, readsTask: true),
        new BlockingApi("System.Runtime.CompilerServices.ConfiguredTaskAwaitable+ConfiguredTaskAwaiter", "GetResult", "ConfigureAwait(...).GetAwaiter().GetResult()", YieldTaskThenRead, readsTask: true),
        new BlockingApi("System.Runtime.CompilerServices.ConfiguredTaskAwaitable`1+ConfiguredTaskAwaiter", "GetResult", "ConfigureAwait(...).GetAwaiter().GetResult()", YieldTaskThenRead, readsTask: true),
        new BlockingApi("System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable+ConfiguredValueTaskAwaiter", "GetResult", "ConfigureAwait(...).GetAwaiter().GetResult()", YieldTaskThenRead, readsTask: true),
        new BlockingApi("System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable`1+ConfiguredValueTaskAwaiter", "GetResult", "ConfigureAwait(...).GetAwaiter().GetResult()", YieldTaskThenRead, readsTask: true),
        new BlockingApi("System.Threading.Thread", "Sleep", "Thread.Sleep", "yield Event.Sleep(...) instead"),
        new BlockingApi("System.Threading.Thread", "Join", "Thread.Join", "yield TaskEvent.RunBlocking(() => thread.Join()) instead to wait on the thread pool"),
        new BlockingApi("System.Threading.Monitor", "Wait", "Monitor.Wait", SignalOrRunBlocking),
        new BlockingApi("System.Threading.SemaphoreSlim", "Wait", "SemaphoreSlim.Wait", "yield semaphore.WaitAsync().AsEvent() instead, or take a CreditWindow credit"),
        new BlockingApi("System.Threading.ManualResetEventSlim", "Wait", "ManualResetEventSlim.Wait", SignalOrRunBlocking),
        new BlockingApi("System.Threading.CountdownEvent", "Wait", "CountdownEvent.Wait", SignalOrRunBlocking),
        new BlockingApi("System.Threading.WaitHandle", "WaitOne", "WaitHandle.WaitOne", SignalOrRunBlocking),
        new BlockingApi("System.Threading.WaitHandle", "WaitAll", "WaitHandle.WaitAll", SignalOrRunBlocking),
        new BlockingApi("System.Threading.WaitHandle", "WaitAny", "WaitHandle.WaitAny", SignalOrRunBlocking),
        new BlockingApi("System.Collections.Concurrent.BlockingCollection`1", "Take", "BlockingCollection.Take", "receive from a Mailbox<T> instead, or yield TaskEvent.RunBlocking(...) to wait on the thread pool"),
        new BlockingApi("ThreadIterators.GreenThread", "Wait", "GreenThread.Wait", "yield thread.Exited instead"),
        new BlockingApi("ThreadIterators.Scheduler", "WaitForAll", "Scheduler.WaitForAll", "yield each thread's Exited instead"));

    /// <summary>The entries whose type the compilation has, by declaring type (its original definition) and member name.</summary>
    private readonly Dictionary<INamedTypeSymbol, Dictionary<string, BlockingApi>> _byType;

    private BlockingApiTable(Dictionary<INamedTypeSymbol, Dictionary<string, BlockingApi>> byType) => _byType = byType;

    /// <summary>Resolves the entries against <paramref name="compilation"/>; a type it does not reference drops out.</summary>
    public static BlockingApiTable Create(Compilation compilation)
    {
        var byType = new Dictionary<INamedTypeSymbol, Dictionary<string, BlockingApi>>(SymbolEqualityComparer.Default);
        foreach (var api in s_all)
        {
            if (compilation.GetTypeByMetadataName(api.TypeMetadataName) is not { } type)
            {
                continue;
            }

            if (!byType.TryGetValue(type, out var members))
            {
                members = new Dictionary<string, BlockingApi>();
                byType.Add(type, members);
            }

            members.Add(api.Member, api);
        }

        return new BlockingApiTable(byType);
    }

    /// <summary>
    /// Finds the entry for <paramref name="method"/>, or for the method it overrides (a <c>WaitOne</c> called on a
    /// <c>ManualResetEvent</c> is <c>WaitHandle.WaitOne</c>); null if it is not a known blocking call.
    /// </summary>
    public BlockingApi? Find(IMethodSymbol method)
    {
        for (var current = method; current is not null; current = current.OverriddenMethod)
        {
            if (Find(current.ContainingType, current.Name) is { } api)
            {
                return api;
            }
        }

        return null;
    }

    /// <summary>Finds the entry for <paramref name="property"/>, or for the property it overrides; null if it is not a known blocking read.</summary>
    public BlockingApi? Find(IPropertySymbol property)
    {
        for (var current = property; current is not null; current = current.OverriddenProperty)
        {
            if (Find(current.ContainingType, current.Name) is { } api)
            {
                return api;
            }
        }

        return null;
    }

    /// <summary>The entry for the member named <paramref name="name"/> of <paramref name="type"/>, whatever its type arguments.</summary>
    private BlockingApi? Find(INamedTypeSymbol? type, string name) =>
        type is not null && _byType.TryGetValue(type.OriginalDefinition, out var members) && members.TryGetValue(name, out var api)
            ? api
            : null;
}
