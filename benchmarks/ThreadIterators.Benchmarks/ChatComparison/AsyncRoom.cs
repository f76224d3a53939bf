using System.Collections.Generic;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// A room: a task reading its own unbounded channel, holding the members. Every line a member says goes to every other
/// member's outbound channel, in the order the room reads them, which is each sender's own order.
/// </summary>
internal sealed class AsyncRoom
{
    internal AsyncRoom(string name) => Name = name;

    internal string Name { get; }

    /// <summary>Gets the room's channel: joins, leaves and lines. Completed by the registry once the last member left.</summary>
    internal Channel<AsyncRoomMessage> Inbox { get; } = Channel.CreateUnbounded<AsyncRoomMessage>(new UnboundedChannelOptions { SingleReader = true });

    /// <summary>Members counted by the registry, under its lock: joins it sent minus leaves.</summary>
    internal int Registered { get; set; }

    /// <summary>The room's loop.</summary>
    internal async Task RunAsync()
    {
        var members = new List<AsyncConnection>();
        await foreach (var message in Inbox.Reader.ReadAllAsync())
        {
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
