using System.Collections.Generic;
using ThreadIterators.Orleans;

namespace ThreadIterators.Samples.Cluster;

/// <summary>
/// A room: a process of the kind "room", started on demand by its first join on whichever silo Orleans places it.
/// Every line a member says goes to every other member's handle, wherever that member's connection is.
/// </summary>
internal static class Room
{
    /// <summary>A leave's line when the member's connection is closing: no answer, its writer is ending.</summary>
    internal const string Quitting = "quitting";

    internal static IEnumerable<Event> Run(string name, Mailbox<RoomCommand> inbox)
    {
        var room = name["room/".Length..];
        var members = new Dictionary<string, ProcessRef<string>>();
        var next = inbox.Recv();
        while (true)
        {
            yield return next;
            var command = next.Value;
            switch (command.Kind)
            {
                case RoomCommandKind.Join when command.Handle is { } handle:
                    members[command.Member] = handle;
                    handle.Send($"/joined {room} (on silo {GreenThread.Current!.Scheduler.Name})");
                    break;
                case RoomCommandKind.Leave:
                    if (members.Remove(command.Member, out var left) && command.Line != Quitting)
                    {
                        left.Send($"/left {room}");
                    }

                    if (members.Count == 0)
                    {
                        // The last member left: the room ends and its name is free; the next join starts it again.
                        yield break;
                    }

                    break;
                case RoomCommandKind.Line:
                    foreach (var (member, target) in members)
                    {
                        if (member != command.Member)
                        {
                            target.Send($"{command.Member} {command.Line}");
                        }
                    }

                    break;
            }
        }
    }
}
