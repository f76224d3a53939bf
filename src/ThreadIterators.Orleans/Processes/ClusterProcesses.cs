using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using Orleans.Runtime;

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
        return _node.SpawnAsync(name, capacity: null, body);
    }

    /// <summary>
    /// Spawns a process under <paramref name="name"/> on this silo whose inbox holds at most
    /// <paramref name="capacity"/> messages: a message that finds it full is taken only when there is room, so senders
    /// that put (<see cref="ProcessRef{T}.Put"/>) wait for the process. Otherwise as
    /// <see cref="SpawnAsync{T}(string, Func{Mailbox{T}, IEnumerable{Event}})"/>.
    /// </summary>
    /// <typeparam name="T">The type of message the process receives.</typeparam>
    /// <param name="name">The name, <c>kind/key</c> or a kind alone.</param>
    /// <param name="capacity">The most messages its inbox holds; at least 1.</param>
    /// <param name="body">Makes the process's body from its inbox.</param>
    /// <returns>A task with the process's handle.</returns>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty, or Orleans cannot serialize <typeparamref name="T"/>.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is less than 1.</exception>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="InvalidOperationException">Another process holds the name (the task faults with it).</exception>
    public Task<ProcessRef<T>> SpawnAsync<T>(string name, int capacity, Func<Mailbox<T>, IEnumerable<Event>> body)
    {
        ProcessNode.CheckName(name);
        ArgumentOutOfRangeException.ThrowIfLessThan(capacity, 1);
        ArgumentNullException.ThrowIfNull(body);
        _node.CheckMessageType(typeof(T));
        return _node.SpawnAsync(name, capacity, body);
    }

    /// <summary>
    /// Starts a process of the name's kind on <paramref name="silo"/>, unless a process holds the name already, as
    /// Erlang's <c>spawn(Node, ...)</c> does for a body the node knows: the kind must be registered on that silo
    /// (<see cref="ThreadIteratorsClusterOptions.AddProcess{T}(string, Func{string, Mailbox{T}, IEnumerable{Event}})"/>). Returns the handle either way. With
    /// <see cref="ProcessRef{T}.Link"/>, a local supervisor's child can stand for a process on another silo: it starts
    /// the process, links to itself, and waits; the process's crash stops it, and its restart starts the process again.
    /// </summary>
    /// <typeparam name="T">The type of message the process takes.</typeparam>
    /// <param name="name">The process's name, <c>kind/key</c>.</param>
    /// <param name="silo">The silo to start it on: one of the cluster's (Orleans' <c>IClusterMembershipService</c> lists them).</param>
    /// <returns>The process's handle, once it runs.</returns>
    /// <exception cref="ArgumentException">The name is not one, or <typeparamref name="T"/> cannot be serialized.</exception>
    /// <exception cref="ArgumentNullException"><paramref name="silo"/> is null.</exception>
    /// <exception cref="InvalidOperationException">
    /// No process holds the name and the silo has no such kind, or it is stopping. A name whose grain is still active
    /// elsewhere (its last process has just ended) starts there instead, and a silo that is not an active member of the
    /// cluster is not used (Orleans places the name by its own rule). The start waits for this silo's earlier messages to
    /// the name to be carried first.
    /// </exception>
    public Task<ProcessRef<T>> StartAsync<T>(string name, SiloAddress silo)
    {
        ProcessNode.CheckName(name);
        ArgumentNullException.ThrowIfNull(silo);
        _node.CheckMessageType(typeof(T));
        return _node.StartOnAsync<T>(name, silo);
    }

    /// <inheritdoc/>
    public override string ToString() => $"the processes of {_node}";
}
