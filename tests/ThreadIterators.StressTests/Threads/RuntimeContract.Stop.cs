namespace ThreadIterators.Tests;

// The stop races of RuntimeContract.Stop.Scenarios.cs at their stress sizes: ten times the rounds of the library's tests.
public abstract partial class RuntimeContract
{
    [Fact]
    public void Stop_RacingASender_EveryMessageIsReceivedByTheThreadOrLeftInTheMailbox() => StopRacingASender(rounds: 2_000);

    [Fact]
    public void Stop_RacingSendsToASharedMailbox_EveryMessageIsTakenOnce_AndNoWakeUpIsLost() => StopRacingSendsToASharedMailbox(rounds: 500);

    [Fact]
    public void Stop_RacingACreditRelease_TheWindowKeepsExactlyItsCredits() => StopRacingACreditRelease(rounds: 2_000);

    [Fact]
    public void Stop_RacingAReceiverMakingRoom_EveryPutIsReceivedOnce_OrNeverSent() => StopRacingAReceiverMakingRoom(rounds: 500);

    [Fact]
    public void Stop_RacingTheTokensCancellation_EndsTheThreadCanceled_EitherWay() => StopRacingTheTokensCancellation(rounds: 2_000);
}
