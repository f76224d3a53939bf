using System;
using System.Globalization;
using System.Linq;
using System.Net.Http;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace ThreadIterators.Samples.Supervision;

/// <summary>
/// The local HTTP server the jobs fetch from: Kestrel on 127.0.0.1, on a port the system picks. <c>GET /jobs/{id}?delay=ms</c>
/// answers <c>id * 7</c> as text after the delay, or gives up when the client cancels.
/// </summary>
internal sealed class JobServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private JobServer(WebApplication app, Uri address)
    {
        _app = app;
        Address = address;
    }

    /// <summary>Gets the server's base address.</summary>
    public Uri Address { get; }

    /// <summary>The answer the server gives for a job.</summary>
    public static long AnswerFor(int jobId) => jobId * 7L;

    public static async Task<JobServer> StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        var app = builder.Build();
        app.MapGet("/jobs/{id:int}", async (int id, int delay, HttpContext context) =>
        {
            if (delay > 0)
            {
                await Task.Delay(delay, context.RequestAborted);
            }

            return AnswerFor(id).ToString(CultureInfo.InvariantCulture);
        });
        await app.StartAsync();
        var server = new JobServer(app, new Uri(app.Urls.Single() + "/"));

        // A first request before the run, so that it answers, and so that the time both sides take to compile their
        // HTTP paths is not charged to the first jobs' timeouts.
        using var client = new HttpClient { BaseAddress = server.Address };
        var answer = await client.GetStringAsync(new Uri("jobs/1?delay=0", UriKind.Relative));
        if (answer != AnswerFor(1).ToString(CultureInfo.InvariantCulture))
        {
            throw new InvalidOperationException($"The job server at {server.Address} answered '{answer}' for job 1.");
        }

        return server;
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
