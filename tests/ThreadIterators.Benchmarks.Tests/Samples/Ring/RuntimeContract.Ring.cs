using System.Runtime.CompilerServices;
using ThreadIterators.Samples.Ring;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(1, 0)]
    [InlineData(1, 1)]
    [InlineData(2, 1000)]
    [InlineData(64, 1000)]
    [InlineData(1000, 100)]
    [InlineData(10_000, 10)]
    public void Ring_SeedShape_DrainReceivesEveryMessageInOrder(int n, int m)
    {
        var received = new StrongBox<long>(long.MinValue);
        Run(RingBenchmark.Run(Scheduler, n, m, received));
        Assert.Equal(m, received.Value);
        WaitForAll();
    }
}
