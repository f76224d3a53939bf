using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>
/// The cluster's named processes, as this silo reaches them: handles to any name, and spawns under a name on this
/// silo. One per silo, in its services, once <see cref="ThreadIteratorsSiloBuilderExtensions.AddThreadIterators"/>
/// has run.
/// </summary>
public sealed class ClusterProcesses
{
    private readonly ProcessNode _node;

    internal ClusterProcesses(ProcessNode node) => _node = node;

    internal ProcessNode Node => _node;

    /// <summary>Gets the silo's scheduler, which runs the processes this silo holds.</summary>
    public Scheduler Scheduler => _node.Scheduler;

    /// <summary>
    /// Gets a handle to the process named <paramref name="name"/>, wherever it runs. Nothing is looked up: a send
    /// through the handle starts the process, if none holds the name and its kind is registered.
    /// </summary>
    /// <typeparam name="T">The type of message the process receives.</typeparam>
    /// <param name="name">The name, <c>kind/key</c> or a kind alone.</param>
    /// <returns>The handle.</returns>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty, or Orleans cannot serialize <typeparamref name="T"/>.</exception>
    /// <exception cref="ArgumentNullException"><paramref name="name"/> is null.</exception>
    public ProcessRef<T> Get<T>(string name)
    {
        ProcessNode.CheckName(name);
        _node.CheckMessageType(typeof(T));
        return new ProcessRef<T>(name, _node);
    }

    /// <summary>
    /// Spawns a process under <paramref name="name"/> on this silo, running <paramref name="body"/> with its inbox;
    /// fails if the name is held, here or on another silo. The process holds the name until its thread ends.
    /// </summary>
    /// <typeparam name="T">The type of message the process receives.</typeparam>
    /// <param name="name">The name, <c>kind/key</c> or a kind alone.</param>
    /// <param name="body">Makes the process's body from its inbox.</param>
    /// <returns>A task with the process's handle.</returns>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty, or Orleans cannot serialize <typeparamref name="T"/>.</exception>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="InvalidOperationException">Another process holds the name (the task faults with it).</exception>
    public Task<ProcessRef<T>> SpawnAsync<T>(string name, Func<Mailbox<T>, IEnumerable<Event>> body)
    {
        ProcessNode.CheckName(name);
        ArgumentNullException.ThrowIfNull(body);
        _node.CheckMessageType(typeof(T));
        return _node.SpawnAsync(name, body);
    }

    /// <inheritdoc/>
    public override string ToString() => $"the processes of {_node}";
}
