using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using ThreadIterators.Supervision;

namespace ThreadIterators.Hosting;

/// <summary>
/// Ties the scheduler to the host. The steps of a stop, each written once, here (<see cref="StopAsync"/>):
/// <list type="number">
/// <item>The green-thread services' token is canceled, and their supervisor waited for: each service ends on its
/// own, or is stopped after its child's shutdown time.</item>
/// <item>The other green threads are given <see cref="ThreadIteratorsHostOptions.DrainTimeout"/> to end on their own.</item>
/// <item>The scheduler is disposed: every green thread still running is stopped, and its <c>finally</c> blocks run.</item>
/// </list>
/// Each step ends early when the host's shutdown timeout cancels the stop; what is then left running is logged.
/// </summary>
internal sealed class SchedulerHost(
    Scheduler scheduler,
    ThreadIteratorsHostOptions options,
    IEnumerable<HostedGreenThread> services,
    IServiceProvider provider,
    LongTurns longTurns,
    ILoggerFactory loggers) : IHostedService, IDisposable
{
    private readonly ILogger _log = loggers.CreateLogger("ThreadIterators.Scheduler");
    private readonly ILogger _supervisionLog = loggers.CreateLogger("ThreadIterators.Supervision");
    private readonly CancellationTokenSource _stopping = new();
    private readonly DeadLetterLog _deadLetters = new(loggers.CreateLogger("ThreadIterators.DeadLetters"), options.DeadLettersLoggedPerMinute);
    private GreenThread? _supervisor;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        scheduler.UnobservedFault += OnUnobservedFault;
        scheduler.LongTurn += OnLongTurn;
        scheduler.DeadLetter += _deadLetters.OnDeadLetter;
        var children = services.Select(service => new ChildSpec(service.Id, token => service.Body(provider, token)) { Restart = service.Restart }).ToList();
        if (children.Count > 0)
        {
            var supervisor = new Supervisor(options.ToSupervisorOptions(), children);
            supervisor.Restarted += (_, e) => SchedulerLog.Restarted(_supervisionLog, e.ChildId, e.Exit.Outcome, e.Exit.Exception, e.Delay);
            supervisor.GaveUp += (_, e) => SchedulerLog.GaveUp(_supervisionLog, e.Exception.SupervisorName, e.Exception.ChildId, e.Exception.MaxRestarts, e.Exception.Period, e.Exception);
            _supervisor = supervisor.Start(scheduler, _stopping.Token);
        }

        SchedulerLog.Started(_log, scheduler, scheduler.WorkerCount, children.Count);
        return Task.CompletedTask;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        try
        {
            // Step 1: the services, through their supervisor.
            await _stopping.CancelAsync().ConfigureAwait(false);
            if (_supervisor is { } supervisor)
            {
                await supervisor.AsTask().ContinueWith(static _ => { }, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default)
                    .WaitAsync(cancellationToken).ConfigureAwait(false);
            }

            // Step 2: the others, for a while.
            if (options.DrainTimeout > TimeSpan.Zero)
            {
                try
                {
                    await scheduler.WhenAll().WaitAsync(options.DrainTimeout, cancellationToken).ConfigureAwait(false);
                }
                catch (TimeoutException)
                {
                    // Those still running are stopped next.
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            SchedulerLog.StopTimedOut(_log, scheduler, "waiting for the green-thread services");
        }

        // Step 3: the rest, stopped, their finally blocks run; as long as the host still lets it.
        try
        {
            await scheduler.DisposeAsync().AsTask().WaitAsync(cancellationToken).ConfigureAwait(false);
            SchedulerLog.Stopped(_log, scheduler);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            SchedulerLog.StopTimedOut(_log, scheduler, "stopping the green threads still running (a thread that blocks its OS thread in a finally block holds it)");
        }
        finally
        {
            scheduler.UnobservedFault -= OnUnobservedFault;
            scheduler.LongTurn -= OnLongTurn;
            scheduler.DeadLetter -= _deadLetters.OnDeadLetter;
            _deadLetters.Flush();
        }
    }

    public void Dispose()
    {
        _stopping.Dispose();
        _deadLetters.Dispose();
    }

    private void OnUnobservedFault(object? sender, UnobservedFaultEventArgs e) =>
        SchedulerLog.UnobservedFault(_log, e.Thread, scheduler, e.Exception);

    private void OnLongTurn(object? sender, LongTurnEventArgs e)
    {
        longTurns.Reported(e);
        SchedulerLog.LongTurn(_log, e.Thread, e.WorkerIndex, scheduler, e.Duration);
    }
}
