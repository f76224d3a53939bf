using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;
using ThreadIterators.Supervision;

namespace ThreadIterators.Tests;

/// <summary>Supervisor misuse: each bad argument is refused when given, with a message that names the culprit.</summary>
public sealed class SupervisorArgumentTests
{
    [Fact]
    public void Constructor_RefusesTwoChildrenWithOneId_NamingIt()
    {
        var error = Assert.Throws<ArgumentException>(() => new Supervisor(new SupervisorOptions { Name = "twins" }, Child("x"), Child("x")));
        Assert.Contains("'twins'", error.Message);
        Assert.Contains("'x'", error.Message);
    }

    [Fact]
    public void Constructor_RefusesOptionsOutOfRange_NamingTheOption()
    {
        Assert.Contains("MaxRestarts", Assert.Throws<ArgumentOutOfRangeException>(() => new Supervisor(new SupervisorOptions { MaxRestarts = -1 })).Message);
        Assert.Contains("Period", Assert.Throws<ArgumentOutOfRangeException>(() => new Supervisor(new SupervisorOptions { Period = TimeSpan.Zero })).Message);
        Assert.Contains("Strategy", Assert.Throws<ArgumentOutOfRangeException>(() => new Supervisor(new SupervisorOptions { Strategy = (SupervisionStrategy)7 })).Message);
    }

    [Fact]
    public void ChildSpec_RefusesANegativeGrace_NamingTheChild()
    {
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => new ChildSpec("slow", () => Body()) { Shutdown = TimeSpan.FromSeconds(-1) });
        Assert.Contains("'slow'", error.Message);
        Assert.Equal(Timeout.InfiniteTimeSpan, new ChildSpec("sup", () => Body()) { Shutdown = Timeout.InfiniteTimeSpan }.Shutdown);
    }

    [Fact]
    public void RestartBackoff_RefusesAMaximumBelowTheMinimum_AndComputesDoublingDelays()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new RestartBackoff(TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(1)));
        Assert.Throws<ArgumentOutOfRangeException>(() => new RestartBackoff(TimeSpan.Zero, TimeSpan.FromSeconds(1)));
        Assert.Throws<ArgumentOutOfRangeException>(() => new RestartBackoff(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2)) { RandomFactor = 1.5 });
        var backoff = new RestartBackoff(TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(700));
        Assert.Equal([100, 200, 400, 700, 700], new[] { 1, 2, 3, 4, 40 }.Select(n => backoff.DelayFor(n).TotalMilliseconds));
        var jittered = new RestartBackoff(TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(700)) { RandomFactor = 0.5 };
        Assert.All(Enumerable.Range(0, 100), _ => Assert.InRange(jittered.DelayFor(2).TotalMilliseconds, 200, 300));
    }

    [Fact]
    public void ToChildSpec_OfAnUnnamedSupervisor_NeedsAnId()
    {
        var unnamed = new Supervisor(new SupervisorOptions());
        Assert.Contains(unnamed.ToString(), Assert.Throws<ArgumentException>(() => unnamed.ToChildSpec()).Message);
        var spec = new Supervisor(new SupervisorOptions { Name = "inner" }).ToChildSpec();
        Assert.Equal("inner", spec.Id);
        Assert.Equal(Timeout.InfiniteTimeSpan, spec.Shutdown);
    }

    [Fact]
    public async System.Threading.Tasks.Task Commands_ToASupervisorNeverStarted_FailAtOnce_NamingIt()
    {
        var idle = new Supervisor(new SupervisorOptions { Name = "idle" });
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => idle.StartChildAsync(Child("x")));
        Assert.Contains("'idle' is not running", error.Message);
        await Assert.ThrowsAsync<InvalidOperationException>(() => idle.RemoveChildAsync("x"));
        Assert.Empty(idle.Children);
        Assert.Null(idle.Thread);
    }

    private static ChildSpec Child(string id) => new(id, () => Body());

    private static IEnumerable<Event> Body()
    {
        yield break;
    }
}
