using System;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans.Tests;

/// <summary>Watches a silo's dead letters for the first one sent to a process by name.</summary>
internal static class DeadLetters
{
    /// <summary>
    /// Runs <paramref name="send"/> while listening to <paramref name="processes"/>' scheduler, and returns the first
    /// dead letter whose target is the handle of <paramref name="name"/>, waiting for it up to <paramref name="timeout"/>.
    /// </summary>
    public static async Task<DeadLetterEventArgs> FirstTo<T>(ClusterProcesses processes, string name, Action send, TimeSpan timeout)
    {
        var refused = new TaskCompletionSource<DeadLetterEventArgs>(TaskCreationOptions.RunContinuationsAsynchronously);
        void OnDeadLetter(object? sender, DeadLetterEventArgs args)
        {
            if (args.Mailbox is ProcessRef<T> target && target.Name == name)
            {
                refused.TrySetResult(args);
            }
        }

        processes.Scheduler.DeadLetter += OnDeadLetter;
        try
        {
            send();
            return await refused.Task.WaitAsync(timeout);
        }
        finally
        {
            processes.Scheduler.DeadLetter -= OnDeadLetter;
        }
    }
}
