using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// A token canceled while messages arrive for the same choice, many times over: every message is received before the
/// token wins, or stays. A body only: RuntimeContract.Cancellation.cs runs it at a small size, the stress tier at a
/// large one.
/// </summary>
public abstract partial class RuntimeContract
{
    private void WhenCanceledRacingMessagesInAChoice(int rounds)
    {
        const int Messages = 16;
        for (var round = 0; round < rounds; round++)
        {
            using var cancellation = new CancellationTokenSource();
            var inbox = new Mailbox<int>($"inbox {round}") { OutlivesReceiver = true };
            var choice = new Choice(inbox.Recv(), Event.WhenCanceled(cancellation.Token));
            var received = new List<int>();
            var chooser = Scheduler.Spawn(Choose(), $"chooser {round}");
            var sender = new Thread(() =>
            {
                for (var m = 0; m < Messages; m++)
                {
                    inbox.Send(m);
                    if (m == round % Messages)
                    {
                        cancellation.Cancel();
                    }
                }
            });
            sender.Start();
            Assert.True(sender.Join(Timeout));
            Join(chooser);
            Assert.Equal(Enumerable.Range(0, received.Count), received);
            Assert.Equal(Messages, received.Count + inbox.Count);

            IEnumerable<Event> Choose()
            {
                while (true)
                {
                    yield return choice;
                    if (choice.Index == 1)
                    {
                        yield break;
                    }

                    received.Add(inbox.Recv().Value);
                }
            }
        }
    }
}
