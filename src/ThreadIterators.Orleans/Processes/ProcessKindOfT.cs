using System;
using System.Collections.Generic;

namespace ThreadIterators.Orleans;

/// <summary>A kind of process that receives messages of type <typeparamref name="T"/>.</summary>
internal sealed class ProcessKind<T> : ProcessKind
{
    private readonly Func<string, Mailbox<T>, IEnumerable<Event>> _body;
    private readonly int? _capacity;

    /// <param name="name">The kind's name.</param>
    /// <param name="capacity">The most messages a process's inbox holds; null for an unbounded inbox.</param>
    /// <param name="body">Makes a process's body from its name and its inbox.</param>
    internal ProcessKind(string name, int? capacity, Func<string, Mailbox<T>, IEnumerable<Event>> body)
        : base(name)
    {
        _capacity = capacity;
        _body = body;
    }

    internal override LocalProcess Start(string processName, Scheduler scheduler, IProcessActivation activation) =>
        LocalProcess<T>.Start(processName, _capacity, scheduler, activation, inbox => _body(processName, inbox));
}
