using System.Threading.Tasks;

namespace ThreadIterators.Tests;

// The bounded-mailbox bodies of RuntimeContract.BoundedMailboxes.Scenarios.cs at stress sizes.
public abstract partial class RuntimeContract
{
    [Fact]
    public Task Bounded_GreenOsAndAsyncSenders_EveryMessageOnceInPerSenderOrder_DepthNeverAboveCapacity() => BoundedGreenOsAndAsyncSenders(perSender: 50_000);

    [Fact]
    public void Put_ReceiverTakesOneThenJoinsTheProducer_ProducerIsReleased() => PutReceiverTakesOneThenJoinsTheProducer(rounds: 200);
}
