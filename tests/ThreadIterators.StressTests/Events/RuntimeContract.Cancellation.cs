namespace ThreadIterators.Tests;

// The token race of RuntimeContract.Cancellation.Scenarios.cs at its stress size.
public abstract partial class RuntimeContract
{
    [Fact]
    public void WhenCanceled_RacingMessagesInAChoice_EveryMessageIsReceivedOrLeft() => WhenCanceledRacingMessagesInAChoice(rounds: 2_000);
}
