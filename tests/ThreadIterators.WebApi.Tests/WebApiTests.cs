using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;
using OpenTelemetry.Trace;
using ThreadIterators.Tests;
using WebApi;

namespace ThreadIterators.WebApi.Tests;

/// <summary>
/// The web sample as a client sees it: the application on Kestrel on a free loopback port, asked over real HTTP, its
/// answers counted and its trace read from OpenTelemetry's in-memory exporter.
/// </summary>
public sealed class WebApiTests : IAsyncLifetime, IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    private readonly SpanList _exported = new();

    private readonly FakeTimeProvider _time = new();

    private WebApplication? _app;

    private HttpClient? _client;

    public async Task InitializeAsync()
    {
        _app = WebApiApp.Build("http://127.0.0.1:0", tracing => tracing.AddInMemoryExporter(_exported), services => services.AddSingleton<TimeProvider>(_time));
        await _app.StartAsync();
        var address = _app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        _client = new HttpClient { BaseAddress = new Uri(address), Timeout = Timeout };
    }

    public void Dispose() => _client?.Dispose();

    public async Task DisposeAsync()
    {
        if (_app is not null)
        {
            await _app.DisposeAsync();
        }
    }

    [Theory]
    [InlineData("/counter/actor")]
    [InlineData("/counter/lock")]
    [InlineData("/counter/channel")]
    public async Task ACounter_Asked200TimesAtOnce_AnswersEachCountOnce(string path)
    {
        var answers = await Task.WhenAll(Enumerable.Range(0, 200).Select(async _ =>
        {
            using var response = await _client!.PostAsync(path, content: null);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            return long.Parse(await response.Content.ReadAsStringAsync(), CultureInfo.InvariantCulture);
        }));

        Assert.Equal(Enumerable.Range(1, 200).Select(i => (long)i), answers.Order());
    }

    [Fact]
    public async Task TheRateLimiter_GrantsABurstPerClient_ThenRefillsWithTime()
    {
        for (var i = 0; i < 5; i++)
        {
            Assert.Equal(HttpStatusCode.OK, await StatusOf("/limit/alice"));
        }

        Assert.Equal(HttpStatusCode.TooManyRequests, await StatusOf("/limit/alice"));
        Assert.Equal(HttpStatusCode.OK, await StatusOf("/limit/bob"));

        // Two tokens a second: half a second gives alice one more.
        _time.Advance(TimeSpan.FromMilliseconds(500));
        Assert.Equal(HttpStatusCode.OK, await StatusOf("/limit/alice"));
        Assert.Equal(HttpStatusCode.TooManyRequests, await StatusOf("/limit/alice"));
    }

    [Fact]
    public async Task TheCache_ComputesAKeysValueOnce_InTheKeysOwnThread()
    {
        var first = await _client!.GetStringAsync("/cache/greeting");
        var second = await _client.GetStringAsync("/cache/greeting");
        var other = await _client.GetStringAsync("/cache/farewell");

        Assert.EndsWith(", request 1", first, StringComparison.Ordinal);
        Assert.EndsWith(", request 2", second, StringComparison.Ordinal);
        Assert.Equal(first[..first.LastIndexOf(',')], second[..second.LastIndexOf(',')]);
        Assert.StartsWith("farewell (computed at ", other, StringComparison.Ordinal);
        Assert.EndsWith(", request 1", other, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ARequestsTrace_GoesThroughTheAskIntoTheCountersGreenThread()
    {
        using var response = await _client!.PostAsync("/counter/actor", content: null);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);

        // The counter's receive span ends as its thread waits for the next request, after it replied.
        Activity? receive = null;
        Assert.True(
            SpinWait.SpinUntil(() => (receive = Find("receive counter")) is not null && Find("POST /counter/actor") is not null, Timeout),
            "The request's spans were not all exported.");
        var server = Find("POST /counter/actor")!;
        var ask = Single(server, "ask counter");
        var send = Single(server, "send counter");
        Assert.Equal(ActivityKind.Server, server.Kind);
        Assert.Equal(server.SpanId, ask.ParentSpanId);
        Assert.Equal(ask.SpanId, send.ParentSpanId);
        Assert.Equal(server.TraceId, receive!.TraceId);
        Assert.Equal(send.SpanId, receive.ParentSpanId);
        Assert.Equal(send.SpanId, Assert.Single(receive.Links).Context.SpanId);
    }

    private async Task<HttpStatusCode> StatusOf(string path)
    {
        using var response = await _client!.GetAsync(path);
        return response.StatusCode;
    }

    private Activity? Find(string name) => _exported.Snapshot().LastOrDefault(a => a.DisplayName == name);

    private Activity Single(Activity server, string name) => Assert.Single(_exported.Snapshot(), a => a.TraceId == server.TraceId && a.DisplayName == name);
}
