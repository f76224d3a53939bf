namespace ThreadIterators.Tests;

// The pull body of RuntimeContract.Pull.Scenarios.cs at its stress size.
public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(1, false)]
    [InlineData(10, false)]
    [InlineData(50, false)]
    [InlineData(10, true)]
    public void Pull_ThreeConsumers_EveryItemOnce_BatchesInOrder_NeverMoreOutstandingThanAsked(int batchSize, bool prefetch) => PullThreeConsumers(batchSize, prefetch, items: 30_001);
}
