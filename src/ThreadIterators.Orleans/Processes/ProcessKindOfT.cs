using System;
using System.Collections.Generic;

namespace ThreadIterators.Orleans;

/// <summary>A kind of process that receives messages of type <typeparamref name="T"/>.</summary>
internal sealed class ProcessKind<T> : ProcessKind
{
    private readonly Func<string, Mailbox<T>, IEnumerable<Event>> _body;

    internal ProcessKind(string name, Func<string, Mailbox<T>, IEnumerable<Event>> body)
        : base(name) => _body = body;

    internal override LocalProcess Start(string processName, Scheduler scheduler, IProcessActivation activation) =>
        LocalProcess<T>.Start(processName, scheduler, activation, inbox => _body(processName, inbox));
}
