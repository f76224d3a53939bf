// A .NET host whose scheduler comes from AddThreadIterators: options from appsettings.json's "ThreadIterators"
// section, a supervised green-thread service that counts ticks until the host stops, and the scheduler's health check.
// It runs for the seconds given (1 by default), prints the health report and the ticks, and stops.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using ThreadIterators;
using ThreadIterators.Hosting;

var seconds = args.Length > 0 ? double.Parse(args[0], CultureInfo.InvariantCulture) : 1;
var ticks = 0;

// appsettings.json is read from beside the program, wherever it is started from.
var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.Services.AddThreadIterators(builder.Configuration.GetSection("ThreadIterators"));
builder.Services.AddGreenThread("ticker", (_, stop) => Ticker(stop));
builder.Services.AddHealthChecks().AddThreadIterators();
using var host = builder.Build();
await host.StartAsync();

var report = await host.Services.GetRequiredService<HealthCheckService>().CheckHealthAsync();
Console.WriteLine($"health: {report.Status}: {report.Entries["threaditerators"].Description}");
await Task.Delay(TimeSpan.FromSeconds(seconds));
await host.StopAsync();
Console.WriteLine($"ticks: {Volatile.Read(ref ticks)}; the ticker ended on the host's stop");

// The green-thread service: a tick every 100 ms until the host's stopping token is canceled.
IEnumerable<Event> Ticker(CancellationToken stop)
{
    var stopped = Event.WhenCanceled(stop);
    while (!stop.IsCancellationRequested)
    {
        var tick = new Choice(Event.Sleep(TimeSpan.FromMilliseconds(100)), stopped);
        yield return tick;
        Interlocked.Increment(ref ticks);
    }
}
