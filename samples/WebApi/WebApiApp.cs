using System;
using System.Globalization;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OpenTelemetry.Trace;
using ThreadIterators;
using ThreadIterators.Hosting;
using WebApi.Actors;
using WebApi.Baselines;

namespace WebApi;

/// <summary>
/// The web application: its scheduler from <c>AddThreadIterators</c>, its actors as green-thread services, and the
/// endpoints that ask them, beside the same counter behind a lock and behind a Channel.
/// </summary>
public static class WebApiApp
{
    /// <summary>How long an endpoint waits for an actor's answer before it answers 503.</summary>
    public static readonly TimeSpan AskTimeout = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Builds the application, listening on <paramref name="url"/> (port 0 takes a free one), traced to whatever
    /// <paramref name="tracing"/> adds (an exporter), or not traced if it is null; <paramref name="services"/> may
    /// replace a service, such as the <see cref="TimeProvider"/> the rate limiter reads.
    /// </summary>
    public static WebApplication Build(string url, Action<TracerProviderBuilder>? tracing, Action<IServiceCollection>? services = null)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls(url);
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Services.AddThreadIterators(options => options.Name = "web");

        // Each actor's mailbox outlives its thread, so a restart by the green-thread service's supervisor takes the
        // requests waiting in it.
        builder.Services.AddSingleton(new Mailbox<Counter.Add>(Counter.Name) { OutlivesReceiver = true });
        builder.Services.AddSingleton(new Mailbox<RateLimiter.Acquire>(RateLimiter.Name) { OutlivesReceiver = true });
        builder.Services.AddSingleton(new Mailbox<KeyCache.Get>(KeyCache.Name) { OutlivesReceiver = true });
        builder.Services.AddGreenThread(Counter.Name, static (services, _) => Counter.Run(services.GetRequiredService<Mailbox<Counter.Add>>()));
        builder.Services.AddGreenThread(RateLimiter.Name, static (services, _) => RateLimiter.Run(services.GetRequiredService<Mailbox<RateLimiter.Acquire>>(), services.GetService<TimeProvider>() ?? TimeProvider.System));
        builder.Services.AddGreenThread(KeyCache.Name, static (services, _) => KeyCache.Run(services.GetRequiredService<Mailbox<KeyCache.Get>>()));

        builder.Services.AddSingleton<LockCounter>();
        builder.Services.AddSingleton<ChannelCounter>();
        builder.Services.AddHostedService(static services => services.GetRequiredService<ChannelCounter>());

        if (tracing is not null)
        {
            builder.Services.AddOpenTelemetry().WithTracing(t =>
            {
                t.AddSource("ThreadIterators").AddAspNetCoreInstrumentation();
                tracing(t);
            });
        }

        services?.Invoke(builder.Services);
        var app = builder.Build();
        Map(app);
        return app;
    }

    private static void Map(WebApplication app)
    {
        var counter = app.Services.GetRequiredService<Mailbox<Counter.Add>>();
        var limiter = app.Services.GetRequiredService<Mailbox<RateLimiter.Acquire>>();
        var cache = app.Services.GetRequiredService<Mailbox<KeyCache.Get>>();
        var lockCounter = app.Services.GetRequiredService<LockCounter>();
        var channelCounter = app.Services.GetRequiredService<ChannelCounter>();

        app.MapPost("/counter/actor", () => Answer(counter.AskAsync<Counter.Add, long>(reply => new Counter.Add(1, reply), AskTimeout)));
        app.MapPost("/counter/lock", () => Results.Text(lockCounter.Add(1).ToString(CultureInfo.InvariantCulture)));
        app.MapPost("/counter/channel", () => Answer(channelCounter.AddAsync(1)));
        app.MapGet("/limit/{client}", async (string client) =>
        {
            var granted = await limiter.AskAsync<RateLimiter.Acquire, bool>(reply => new RateLimiter.Acquire(client, reply), AskTimeout);
            return granted ? Results.Text("granted") : Results.Text("too many requests", statusCode: StatusCodes.Status429TooManyRequests);
        });
        app.MapGet("/cache/{key}", async (string key) => Results.Text(await cache.AskAsync<KeyCache.Get, string>(reply => new KeyCache.Get(key, reply), AskTimeout)));
    }

    private static async Task<IResult> Answer(Task<long> count)
    {
        try
        {
            return Results.Text((await count).ToString(CultureInfo.InvariantCulture));
        }
        catch (TimeoutException exception)
        {
            return Results.Text(exception.Message, statusCode: StatusCodes.Status503ServiceUnavailable);
        }
    }
}
