using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Reflection;
using System.Text.RegularExpressions;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// What the debugger shows for the types people inspect: each display is read as the debugger reads it, through the
/// member its <see cref="DebuggerDisplayAttribute"/> names, so a renamed member or a broken string fails here.
/// </summary>
public sealed partial class DebuggerDisplayTests
{
    private static readonly TimeSpan Timeout = Waiting.Timeout;

    [Fact]
    public void GreenThread_ShowsItsSchedulerAndHowItEnded_WithoutObservingItsFault()
    {
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = 1, Name = "shown" });
        var unobserved = new List<UnobservedFaultEventArgs>();
        scheduler.UnobservedFault += (_, e) => unobserved.Add(e);
        var release = new Mailbox<int>("release");
        var thread = scheduler.Spawn(FailOnRelease(release), "inspected");
        var number = Regex.Match(scheduler.ToString(), "#([0-9]+)").Groups[1].Value;
        Assert.Equal($"GreenThread #1 'inspected' of Scheduler #{number} 'shown' (1 workers): Running", Display(thread));
        release.Send(0);
        Waiting.Until(() => thread.IsCompleted, "the thread faults");
        Assert.Equal($"GreenThread #1 'inspected' of Scheduler #{number} 'shown' (1 workers): Faulted (InvalidOperationException: looked at)", Display(thread));

        // Looking did not observe the fault: the disposal still reports it.
        scheduler.Dispose();
        Assert.Same(thread, Assert.Single(unobserved).Thread);

        var quiet = new Scheduler(new SchedulerOptions { WorkerCount = 1 });
        var ended = quiet.Spawn(Nothing());
        Assert.True(ended.Wait(Timeout));
        Assert.EndsWith("(1 workers): Completed", Display(ended), StringComparison.Ordinal);
        var stopped = quiet.Spawn(WaitForever(new Mailbox<int>()));
        stopped.Stop("enough");
        Waiting.Until(() => stopped.IsCompleted, "the stopped thread ends");
        Assert.Contains(": Canceled (GreenThreadStoppedException: ", Display(stopped), StringComparison.Ordinal);
        quiet.Dispose();
    }

    [Fact]
    public void Mailbox_ShowsItsMessagesCapacityReceiverAndCompletion()
    {
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = 1 });
        var inbox = new Mailbox<int>("inbox");
        Assert.Equal("Mailbox<Int32> 'inbox': 0 queued, no receiver yet", Display(inbox));
        inbox.Send(1);
        inbox.Send(2);
        Assert.Equal("Mailbox<Int32> 'inbox': 2 queued, no receiver yet", Display(inbox));
        var receiver = scheduler.Spawn(TakeOne(inbox), "taker");
        Assert.True(receiver.Wait(Timeout));
        Assert.Equal("Mailbox<Int32> 'inbox': 0 queued, receiver GreenThread #1 'taker' (ended)", Display(inbox));

        var bounded = new Mailbox<string>(4);
        Assert.True(bounded.TrySend("a"));
        bounded.Complete();
        Assert.Equal("Mailbox<String>: 1/4 queued, no receiver yet, completed", Display(bounded));
    }

    [Fact]
    public void Scheduler_ShowsItsNameNumberPolicyLiveThreadsDeadLettersAndDisposal()
    {
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = 2, Policy = SchedulingPolicy.SharedQueue, Name = "display" });
        var release = new Mailbox<int>("release");
        var waiting = scheduler.Spawn(WaitForever(release));
        var number = Regex.Match(scheduler.ToString(), "#([0-9]+)").Groups[1].Value;
        Assert.Equal($"Scheduler #{number} 'display' (2 workers), SharedQueue: 1 live threads, 0 dead letters", Display(scheduler));
        release.Send(1);
        Assert.True(waiting.Wait(Timeout));

        // The live count drops after the end is published, so wait for it rather than for the thread.
        Assert.True(scheduler.WaitForAll(Timeout));
        release.Send(2);
        Assert.Equal($"Scheduler #{number} 'display' (2 workers), SharedQueue: 0 live threads, 1 dead letters", Display(scheduler));
        scheduler.Dispose();
        Assert.EndsWith(", disposed", Display(scheduler), StringComparison.Ordinal);
    }

    /// <summary>Evaluates <paramref name="value"/>'s display as the debugger does: each <c>{member,nq}</c> of the attribute, read by reflection.</summary>
    private static string Display(object value)
    {
        var attribute = value.GetType().GetCustomAttribute<DebuggerDisplayAttribute>()
            ?? throw new InvalidOperationException($"{value.GetType()} has no [DebuggerDisplay].");
        return HoleRegex().Replace(attribute.Value, hole =>
        {
            var name = hole.Groups["member"].Value;
            const BindingFlags Any = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;
            var member = value.GetType().GetProperty(name, Any)?.GetValue(value)
                ?? (name == "ToString()" ? value.ToString() : throw new InvalidOperationException($"{value.GetType()}'s display names '{name}', which it does not have."));
            return hole.Groups["nq"].Success ? $"{member}" : $"\"{member}\"";
        });
    }

    [GeneratedRegex(@"\{(?<member>[^,}]+)(?<nq>,nq)?\}")]
    private static partial Regex HoleRegex();

    private static IEnumerable<Event> FailOnRelease(Mailbox<int> release)
    {
        yield return release.Recv();
        throw new InvalidOperationException("looked at");
    }

    private static IEnumerable<Event> Nothing()
    {
        yield break;
    }

    private static IEnumerable<Event> WaitForever(Mailbox<int> inbox)
    {
        yield return inbox.Recv();
    }

    private static IEnumerable<Event> TakeOne(Mailbox<int> inbox)
    {
        yield return inbox.Recv();
    }
}
