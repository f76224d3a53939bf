using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;

namespace WebApi;

/// <summary>
/// <c>load [--concurrency 1000] [--requests 20000] [--rounds 9]</c>: the latency of one POST that increments a counter,
/// asked of the counter actor, taken under a lock, and handed to a Channel's loop, each with <c>concurrency</c>
/// requests in flight over as many loopback connections. Untraced, so the figures are the endpoints', not an
/// exporter's. The endpoints take turns, their order rotating each round, after two untimed rounds; the client runs in
/// the same process as the server, as the three endpoints do.
/// </summary>
internal static class LoadTest
{
    private static readonly string[] s_paths = ["/counter/actor", "/counter/lock", "/counter/channel"];

    public static async Task<int> RunAsync(string[] args)
    {
        var concurrency = Option(args, "--concurrency", 1000);
        var requests = Option(args, "--requests", 20_000);
        var rounds = Option(args, "--rounds", 9);

        await using var app = WebApiApp.Build("http://127.0.0.1:0", tracing: null);
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        using var handler = new SocketsHttpHandler { MaxConnectionsPerServer = concurrency, PooledConnectionLifetime = Timeout.InfiniteTimeSpan };
        using var client = new HttpClient(handler) { BaseAddress = new Uri(address), Timeout = TimeSpan.FromMinutes(2) };

        Console.WriteLine($"load: {requests:N0} POSTs a round at {concurrency:N0} in flight, {rounds} rounds, on {address}; {Environment.ProcessorCount} cores");
        // Two untimed rounds: the first timed rounds ran up to twice as slow as the later ones (JIT tiering, the
        // connection pool and the thread pool growing).
        for (var warmUp = 0; warmUp < 2; warmUp++)
        {
            foreach (var path in s_paths)
            {
                await RunAsync(client, path, requests, concurrency);
            }
        }

        var p99s = s_paths.ToDictionary(p => p, _ => new List<double>());
        var p50s = s_paths.ToDictionary(p => p, _ => new List<double>());
        var rates = s_paths.ToDictionary(p => p, _ => new List<double>());
        for (var round = 0; round < rounds; round++)
        {
            for (var k = 0; k < s_paths.Length; k++)
            {
                var path = s_paths[(round + k) % s_paths.Length];
                var clock = Stopwatch.StartNew();
                var latencies = await RunAsync(client, path, requests, concurrency);
                var seconds = clock.Elapsed.TotalSeconds;
                Array.Sort(latencies);
                p50s[path].Add(Percentile(latencies, 0.50));
                p99s[path].Add(Percentile(latencies, 0.99));
                rates[path].Add(requests / seconds);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"round {round + 1} {path,-17} p50 {Percentile(latencies, 0.50),7:F2} ms  p99 {Percentile(latencies, 0.99),7:F2} ms  max {latencies[^1],7:F2} ms  {requests / seconds,8:N0} req/s"));
            }
        }

        Console.WriteLine("medians of the rounds:");
        var lockP99 = Median(p99s["/counter/lock"]);
        foreach (var path in s_paths)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{path,-17} p50 {Median(p50s[path]),7:F2} ms  p99 {Median(p99s[path]),7:F2} ms ({Median(p99s[path]) / lockP99:F2} of the lock's)  {Median(rates[path]),8:N0} req/s"));
        }

        return 0;
    }

    /// <summary>Sends <paramref name="requests"/> POSTs to <paramref name="path"/>, <paramref name="concurrency"/> at a time; returns each one's latency in milliseconds.</summary>
    private static async Task<double[]> RunAsync(HttpClient client, string path, int requests, int concurrency)
    {
        var latencies = new double[requests];
        var next = -1;
        var senders = Enumerable.Range(0, concurrency).Select(async _ =>
        {
            while (true)
            {
                var i = Interlocked.Increment(ref next);
                if (i >= requests)
                {
                    return;
                }

                var start = Stopwatch.GetTimestamp();
                using var response = await client.PostAsync(path, content: null);
                response.EnsureSuccessStatusCode();
                latencies[i] = Stopwatch.GetElapsedTime(start).TotalMilliseconds;
            }
        });
        await Task.WhenAll(senders);
        return latencies;
    }

    private static double Percentile(double[] sorted, double fraction) => sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(fraction * sorted.Length) - 1)];

    private static double Median(List<double> values)
    {
        var sorted = values.Order().ToList();
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
    }

    private static int Option(string[] args, string name, int fallback)
    {
        var i = Array.IndexOf(args, name);
        return i >= 0 && i + 1 < args.Length && int.TryParse(args[i + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) && value > 0 ? value : fallback;
    }
}
