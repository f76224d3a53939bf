using System.Collections.Generic;

namespace ThreadIterators.Samples.Chat;

/// <summary>
/// A room: a green thread with its own mailbox, holding the members. Every line a member says goes to every other
/// member's outbound mailbox, in the order the room receives them, which is each sender's own order.
/// </summary>
internal sealed class Room
{
    internal Room(string name) => Name = name;

    internal string Name { get; }

    /// <summary>Gets the room's mailbox: joins, leaves and lines. Completed by the registry once the last member left.</summary>
    internal Mailbox<RoomMessage> Inbox { get; } = new();

    /// <summary>Members counted by the registry, under its lock: joins it sent minus leaves.</summary>
    internal int Registered { get; set; }

    /// <summary>The room's body.</summary>
    internal IEnumerable<Event> Run()
    {
        var members = new List<Connection>();
        var next = Inbox.Recv();
        while (true)
        {
            yield return next;
            if (next.IsCompleted)
            {
                yield break;
            }

            var message = next.Value;
            switch (message.Kind)
            {
                case RoomMessageKind.Join:
                    members.Add(message.From);
                    message.From.Say($"/joined {Name}");
                    break;
                case RoomMessageKind.Leave:
                    members.Remove(message.From);
                    message.From.Say($"/left {Name}");
                    break;
                default:
                    var line = $"{message.From.Id} {message.Line}";
                    foreach (var member in members)
                    {
                        if (member != message.From)
                        {
                            // Never waits: a member this far behind is dropped, not waited for.
                            member.Say(line);
                        }
                    }

                    break;
            }
        }
    }

    /// <inheritdoc/>
    public override string ToString() => $"room '{Name}'";
}
