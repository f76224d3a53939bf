using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>Not written yet.</summary>
internal sealed class ProtoContender() : Contender("Proto")
{
    public override string Version => throw new NotImplementedException();

    public override IEnumerable<Process> Nodes => throw new NotImplementedException();

    public override Task StartAsync() => throw new NotImplementedException();

    public override Task<double[]> PingPongAsync(int count) => throw new NotImplementedException();

    public override Task StreamAsync(int count, int window) => throw new NotImplementedException();

    public override Task<TimeSpan> RingAsync(int size, int laps) => throw new NotImplementedException();

    public override Task<TimeSpan> NodeDownAsync(int watchers) => throw new NotImplementedException();

    public override ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
