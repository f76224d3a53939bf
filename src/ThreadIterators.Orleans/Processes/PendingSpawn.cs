using System;

namespace ThreadIterators.Orleans;

/// <summary>
/// A spawn under a name made on this silo (<see cref="ClusterProcesses.SpawnAsync{T}(string, System.Func{Mailbox{T}, System.Collections.Generic.IEnumerable{Event}})"/>), waiting for the activation
/// of the name, which Orleans places on this silo, to start it; the ticket tells the spawner the activation was its own.
/// </summary>
internal sealed record PendingSpawn(Guid Ticket, ProcessKind Kind);
