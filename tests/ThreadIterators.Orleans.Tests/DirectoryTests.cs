using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Orleans;
using Orleans.Hosting;

namespace ThreadIterators.Orleans.Tests;

/// <summary>Silos that register Orleans' distributed grain directory themselves, before AddThreadIterators.</summary>
public sealed class DirectoryTests
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Theory]
    [InlineData(null)]
    [InlineData("their-own")]
    public async Task ASiloThatRegisteredTheDistributedDirectoryFirst_RunsProcesses_InTheSameDirectory(string? theirName)
    {
        var (siloPort, gatewayPort) = (NodeDownTests.FreePort(), NodeDownTests.FreePort());
        var builder = Host.CreateApplicationBuilder();
        builder.UseOrleans(silo =>
        {
            silo.UseLocalhostClustering(siloPort, gatewayPort, null, "threaditerators-tests", $"directory-{Guid.NewGuid():N}");
#pragma warning disable ORLEANSEXP003 // The configuration under test: Orleans registers this directory once, under the first name given.
            silo.AddDistributedGrainDirectory(theirName);
#pragma warning restore ORLEANSEXP003
            silo.AddThreadIterators(options => options.AddProcess<int>("echo", (_, inbox) => Echo(inbox)));
        });
        using var host = builder.Build();
        await host.StartAsync();
        try
        {
            var processes = host.Services.GetRequiredService<ClusterProcesses>();
            var answered = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
            s_answers = answered;
            processes.Get<int>("echo/1").Send(41);
            Assert.Equal(42, await answered.Task.WaitAsync(Generous));

            var spawned = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            IEnumerable<Event> Spawned(Mailbox<int> inbox)
            {
                yield return inbox.Recv();
                spawned.TrySetResult();
            }

            (await processes.SpawnAsync<int>("spawned", Spawned)).Send(1);
            await spawned.Task.WaitAsync(Generous);
        }
        finally
        {
            await host.StopAsync();
        }
    }

    private static TaskCompletionSource<int>? s_answers;

    private static IEnumerable<Event> Echo(Mailbox<int> inbox)
    {
        yield return inbox.Recv();
        s_answers?.TrySetResult(inbox.Recv().Value + 1);
    }
}
