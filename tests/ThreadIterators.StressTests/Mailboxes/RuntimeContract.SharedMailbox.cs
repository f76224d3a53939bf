using System.Threading.Tasks;

namespace ThreadIterators.Tests;

// The shared-mailbox bodies of RuntimeContract.SharedMailbox.Scenarios.cs at stress sizes.
public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(0)]
    [InlineData(8)]
    public Task SharedMailbox_ManySendersThreeReceivers_EveryMessageExactlyOnce_DepthBounded(int capacity) => SharedMailboxManySendersThreeReceivers(capacity, perSender: 40_000);

    [Fact]
    public void SharedMailbox_BoundedOneReceiver_TwoGreenSenders_PerSenderOrderKept() => SharedMailboxBoundedOneReceiverTwoGreenSenders(perSender: 30_000);
}
