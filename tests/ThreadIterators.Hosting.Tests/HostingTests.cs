using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using ThreadIterators.Supervision;

namespace ThreadIterators.Hosting.Tests;

/// <summary>A scheduler in a real .NET host: options from configuration, the host's lifetime, logging and health.</summary>
public sealed class HostingTests
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task TheOptions_AreReadFromConfiguration_AndTheSchedulerLivesAsLongAsTheHost()
    {
        var builder = Host.CreateApplicationBuilder();
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["ThreadIterators:Name"] = "web",
            ["ThreadIterators:WorkerCount"] = "3",
            ["ThreadIterators:LongTurnThreshold"] = "00:00:02",
        });
        builder.Services.AddThreadIterators(builder.Configuration.GetSection("ThreadIterators"));
        using var host = builder.Build();
        await host.StartAsync();
        var scheduler = host.Services.GetRequiredService<Scheduler>();
        Assert.Equal("web", scheduler.Name);
        Assert.Equal(3, scheduler.WorkerCount);
        Assert.Equal(TimeSpan.FromSeconds(2), host.Services.GetRequiredService<ThreadIteratorsHostOptions>().LongTurnThreshold);

        var ran = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        scheduler.Spawn(Once(ran), "once");
        await ran.Task.WaitAsync(Generous);
        await host.StopAsync();
        Assert.Throws<ObjectDisposedException>(() => scheduler.Spawn(Once(ran), "after the stop"));
    }

    [Fact]
    public async Task AConfigurationValueThatDoesNotParse_FailsTheStart_NamingItsKeyAndValue()
    {
        var builder = Host.CreateApplicationBuilder();
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?> { ["ThreadIterators:WorkerCount"] = "two" });
        builder.Services.AddThreadIterators(builder.Configuration.GetSection("ThreadIterators"));
        using var host = builder.Build();
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => host.StartAsync());
        Assert.Contains("ThreadIterators:WorkerCount = \"two\"", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddingTwice_OrAGreenThreadBeforeTheScheduler_IsRefused_SayingWhy()
    {
        var services = new ServiceCollection();
        var early = Assert.Throws<InvalidOperationException>(() => services.AddGreenThread("early", (_, _) => Empty()));
        Assert.Contains("before AddThreadIterators", early.Message, StringComparison.Ordinal);
        services.AddThreadIterators();
        Assert.Contains("twice", Assert.Throws<InvalidOperationException>(() => services.AddThreadIterators()).Message, StringComparison.Ordinal);
        services.AddGreenThread("once", (_, _) => Empty());
        Assert.Contains("\"once\"", Assert.Throws<InvalidOperationException>(() => services.AddGreenThread("once", (_, _) => Empty())).Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheHostsStop_EndsTheGreenThreadServicesThroughTheirToken_ThenStopsEveryOtherThread_WhoseFinallyBlocksRun()
    {
        var serviceEnded = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var otherCleaned = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var builder = Host.CreateApplicationBuilder();
        builder.Services.AddThreadIterators(options => options.WorkerCount = 2);
        builder.Services.AddGreenThread("ticker", (_, stop) => Ticker(serviceEnded, stop));
        using var host = builder.Build();
        await host.StartAsync();
        var scheduler = host.Services.GetRequiredService<Scheduler>();
        var waiting = new Mailbox<int>();
        var other = scheduler.Spawn(WaitsForever(waiting, otherCleaned), "waits for a message nobody sends");
        await host.StopAsync();

        Assert.Equal("ended on its token", await serviceEnded.Task.WaitAsync(Generous));
        await otherCleaned.Task.WaitAsync(Generous);
        Assert.Equal(ThreadOutcome.Canceled, other.Outcome);
    }

    [Fact]
    public async Task AGreenThreadServiceThatFaults_IsRestarted_AndPastItsRestarts_TheSupervisorGivesUp_EachLogged()
    {
        var logs = new CapturedLogs();
        var starts = 0;
        var builder = Host.CreateApplicationBuilder();
        builder.Logging.ClearProviders().AddProvider(logs);
        builder.Services.AddThreadIterators(options =>
        {
            options.WorkerCount = 1;
            options.MaxRestarts = 2;
            options.RestartPeriod = TimeSpan.FromMinutes(10);
        });
        builder.Services.AddGreenThread("fragile", (_, _) => Fails(ref starts));
        using var host = builder.Build();
        await host.StartAsync();
        await WaitUntil(() => logs.WithId(9).Any());
        await host.StopAsync();

        Assert.Equal(3, Volatile.Read(ref starts));
        var restarts = logs.WithId(8).ToList();
        Assert.Equal(2, restarts.Count);
        Assert.All(restarts, r => Assert.Equal("fragile", r.Fields["Service"]));
        Assert.All(restarts, r => Assert.IsType<InvalidOperationException>(r.Exception));
        var gaveUp = Assert.Single(logs.WithId(9));
        Assert.Equal(LogLevel.Error, gaveUp.Level);
        Assert.Equal("fragile", gaveUp.Fields["Service"]);
        Assert.Equal(2, gaveUp.Fields["MaxRestarts"]);
    }

    [Fact]
    public async Task UnobservedFaults_DeadLetters_AndLongTurns_GoToTheLog_WithTheirFields_AndDeadLettersAreCappedAMinute()
    {
        var logs = new CapturedLogs();
        var builder = Host.CreateApplicationBuilder();
        builder.Logging.ClearProviders().AddProvider(logs).SetMinimumLevel(LogLevel.Trace);
        builder.Services.AddThreadIterators(options =>
        {
            options.WorkerCount = 2;
            // Long enough that no other turn of this test crosses it on a loaded machine: only the blocker's is asserted.
            options.LongTurnThreshold = TimeSpan.FromMilliseconds(500);
            options.DeadLettersLoggedPerMinute = 3;
        });
        using var host = builder.Build();
        await host.StartAsync();
        var scheduler = host.Services.GetRequiredService<Scheduler>();

        // Its fault is unobserved (nothing reads it, not even its outcome); kept reachable here, it is reported as the
        // host's stop disposes the scheduler. It is the only thread, so the scheduler's idle wait sees its end.
        var faulty = scheduler.Spawn(Throws(), "faulty");
        await scheduler.WhenAll().WaitAsync(Generous);

        // Five messages to a mailbox whose receiver has ended: three logged one by one, two counted at the stop.
        var inbox = new Mailbox<int>();
        var receiver = scheduler.SpawnReceiver(inbox, Empty(), "ended receiver");
        await receiver.AsTask().WaitAsync(Generous);
        for (var i = 0; i < 5; i++)
        {
            inbox.Send(i);
        }

        using (var release = new ManualResetEventSlim())
        {
            var blocker = scheduler.Spawn(Blocks(release), "blocker");
            await WaitUntil(() => logs.WithId(5).Any(e => e.Fields["Thread"] == blocker));
            release.Set();
            var turn = Assert.Single(logs.WithId(5), e => e.Fields["Thread"] == blocker);
            Assert.Equal(LogLevel.Warning, turn.Level);
            await blocker.AsTask().WaitAsync(Generous);
        }

        await host.StopAsync();
        var fault = Assert.Single(logs.WithId(4));
        Assert.Same(faulty, fault.Fields["Thread"]);
        Assert.Equal(LogLevel.Error, fault.Level);
        Assert.IsType<InvalidOperationException>(fault.Exception);
        Assert.Equal(3, logs.WithId(6).Count());
        Assert.All(logs.WithId(6), d => Assert.Same(inbox, d.Fields["Mailbox"]));
        Assert.Equal(2L, Assert.Single(logs.WithId(7)).Fields["Count"]);
        Assert.Equal(5L, scheduler.DeadLetterCount);
    }

    [Fact]
    public async Task TheHealthCheck_IsHealthy_AndUnhealthyWhileAWorkerIsHeldPastTheLongTurnThreshold_NamingIt()
    {
        var logs = new CapturedLogs();
        var builder = Host.CreateApplicationBuilder();
        builder.Logging.ClearProviders().AddProvider(logs);
        builder.Services.AddThreadIterators(options =>
        {
            options.WorkerCount = 2;

            // The probe must run within it: a second, so that a loaded machine's delays are not taken for a stuck scheduler.
            options.LongTurnThreshold = TimeSpan.FromSeconds(1);
        });
        builder.Services.AddHealthChecks().AddThreadIterators();
        using var host = builder.Build();
        await host.StartAsync();
        var health = host.Services.GetRequiredService<HealthCheckService>();
        Assert.Equal(HealthStatus.Healthy, (await health.CheckHealthAsync()).Status);

        var scheduler = host.Services.GetRequiredService<Scheduler>();
        using var release = new ManualResetEventSlim();
        var blocker = scheduler.Spawn(Blocks(release), "blocker");
        await WaitUntil(() => logs.WithId(5).Any(e => e.Fields["Thread"] == blocker));
        var report = await health.CheckHealthAsync();
        Assert.Equal(HealthStatus.Unhealthy, report.Status);
        var entry = report.Entries["threaditerators"];
        Assert.Contains(blocker.ToString(), entry.Description, StringComparison.Ordinal);

        release.Set();
        await blocker.AsTask().WaitAsync(Generous);
        Assert.Equal(HealthStatus.Healthy, (await health.CheckHealthAsync()).Status);
        await host.StopAsync();
        Assert.Equal(HealthStatus.Unhealthy, (await health.CheckHealthAsync()).Status);
    }

    private static IEnumerable<Event> Once(TaskCompletionSource ran)
    {
        ran.TrySetResult();
        yield break;
    }

    private static IEnumerable<Event> Empty()
    {
        yield break;
    }

    private static IEnumerable<Event> Ticker(TaskCompletionSource<string> ended, CancellationToken stop)
    {
        var canceled = Event.WhenCanceled(stop);
        yield return canceled;
        ended.TrySetResult("ended on its token");
    }

    private static IEnumerable<Event> WaitsForever(Mailbox<int> inbox, TaskCompletionSource cleaned)
    {
        try
        {
            yield return inbox.Recv();
        }
        finally
        {
            cleaned.TrySetResult();
        }
    }

    private static IEnumerable<Event> Fails(ref int starts)
    {
        Interlocked.Increment(ref starts);
        return Throws();
    }

    private static IEnumerable<Event> Throws()
    {
        yield return Event.Yield;
        throw new InvalidOperationException("told to fail");
    }

    private static IEnumerable<Event> Blocks(ManualResetEventSlim release)
    {
        // Blocks its worker on purpose: the long turn under test.
#pragma warning disable TI0001
        release.Wait(Generous);
#pragma warning restore TI0001
        yield break;
    }

    private static async Task WaitUntil(Func<bool> condition)
    {
        var deadline = DateTime.UtcNow + Generous;
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException("The condition did not hold within the generous timeout.");
            }

            await Task.Delay(10);
        }
    }
}
