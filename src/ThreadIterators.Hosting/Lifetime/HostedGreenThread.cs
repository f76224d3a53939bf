using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators.Supervision;

namespace ThreadIterators.Hosting;

/// <summary>A green-thread service, as <see cref="ThreadIteratorsServiceCollectionExtensions.AddGreenThread"/> registered it.</summary>
/// <param name="Id">Its name and child id.</param>
/// <param name="Body">Makes its body from the host's services and the host's stopping token.</param>
/// <param name="Restart">When its supervisor restarts it.</param>
internal sealed record HostedGreenThread(string Id, Func<IServiceProvider, CancellationToken, IEnumerable<Event>> Body, RestartType Restart);
