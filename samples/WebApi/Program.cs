// An ASP.NET Core minimal API whose endpoints ask green-thread actors, traced with OpenTelemetry to the console.
//   dotnet run -c Release --project samples/WebApi                 serves on 127.0.0.1:5080 after asking each endpoint once
//   dotnet run -c Release --project samples/WebApi -- demo         asks each endpoint once, prints the answers and spans, stops
//   dotnet run -c Release --project samples/WebApi -- load [...]   latency of the actor, lock and Channel counters (LoadTest.cs)
using System;
using System.Linq;
using System.Net.Http;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using OpenTelemetry.Trace;
using WebApi;

var mode = args.Length > 0 ? args[0] : "serve";
if (mode == "load")
{
    return await LoadTest.RunAsync(args[1..]);
}

if (mode is not ("serve" or "demo"))
{
    Console.Error.WriteLine("usage: WebApi [serve | demo | load [--concurrency N] [--requests N] [--rounds N]]");
    return 2;
}

await using var app = WebApiApp.Build(mode == "demo" ? "http://127.0.0.1:0" : "http://127.0.0.1:5080", tracing => tracing.AddConsoleExporter());
await app.StartAsync();
var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
Console.WriteLine($"listening on {address}");

using (var client = new HttpClient { BaseAddress = new Uri(address) })
{
    foreach (var (method, path) in new[] { ("POST", "/counter/actor"), ("POST", "/counter/actor"), ("GET", "/limit/alice"), ("GET", "/cache/greeting"), ("GET", "/cache/greeting") })
    {
        using var response = await client.SendAsync(new HttpRequestMessage(new HttpMethod(method), path));
        Console.WriteLine($"{method} {path} -> {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
    }
}

if (mode == "serve")
{
    Console.WriteLine("serving until Ctrl+C");
    await app.WaitForShutdownAsync();
}
else
{
    await app.StopAsync();
}

return 0;
