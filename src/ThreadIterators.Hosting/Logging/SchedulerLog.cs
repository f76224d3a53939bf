using System;
using Microsoft.Extensions.Logging;

namespace ThreadIterators.Hosting;

/// <summary>The package's log entries, each with its event id and structured fields.</summary>
internal static partial class SchedulerLog
{
    [LoggerMessage(EventId = 1, Level = LogLevel.Information, Message = "{Scheduler} started with {WorkerCount} workers and {ServiceCount} green-thread services")]
    internal static partial void Started(ILogger logger, Scheduler scheduler, int workerCount, int serviceCount);

    [LoggerMessage(EventId = 2, Level = LogLevel.Information, Message = "{Scheduler} stopped: every green thread has ended")]
    internal static partial void Stopped(ILogger logger, Scheduler scheduler);

    [LoggerMessage(EventId = 3, Level = LogLevel.Warning, Message = "{Scheduler}: the host's shutdown timeout came while {Step}")]
    internal static partial void StopTimedOut(ILogger logger, Scheduler scheduler, string step);

    [LoggerMessage(EventId = 4, Level = LogLevel.Error, Message = "{Thread} of {Scheduler} ended with an exception nobody observed")]
    internal static partial void UnobservedFault(ILogger logger, GreenThread thread, Scheduler scheduler, Exception exception);

    [LoggerMessage(EventId = 5, Level = LogLevel.Warning, Message = "{Thread} has held worker {Worker} of {Scheduler} for {Duration} in one turn: it blocks its OS thread or computes without yielding, and the worker's other green threads wait")]
    internal static partial void LongTurn(ILogger logger, GreenThread thread, int worker, Scheduler scheduler, TimeSpan duration);

    [LoggerMessage(EventId = 6, Level = LogLevel.Information, Message = "Dead letter: {MessageType} to {Mailbox}, {Reason}")]
    internal static partial void DeadLetter(ILogger logger, Type? messageType, object mailbox, DeadLetterReason reason);

    [LoggerMessage(EventId = 7, Level = LogLevel.Information, Message = "{Count} more dead letters in the last minute were not logged one by one (Scheduler.DeadLetterCount counts them all)")]
    internal static partial void DeadLettersSuppressed(ILogger logger, long count);

    [LoggerMessage(EventId = 8, Level = LogLevel.Warning, Message = "Green-thread service {Service} ended {Outcome} and was restarted after {Delay}")]
    internal static partial void Restarted(ILogger logger, string service, ThreadOutcome outcome, Exception? exception, TimeSpan delay);

    [LoggerMessage(EventId = 9, Level = LogLevel.Error, Message = "Supervisor {Supervisor} gave up: green-thread service {Service} needed more than {MaxRestarts} restarts in {Period}")]
    internal static partial void GaveUp(ILogger logger, string? supervisor, string service, int maxRestarts, TimeSpan period, Exception exception);
}
