namespace ThreadIterators.Tests;

// The mailbox bodies of RuntimeContract.Mailboxes.Scenarios.cs at stress sizes.
public abstract partial class RuntimeContract
{
    [Fact]
    public void Send_ManyProducers_OsAndGreen_EveryMessageOnceInPerSenderOrder() => SendManyProducersOsAndGreen(messagesPerSender: 400_000);

    [Fact]
    public void Recv_ParkedReceivers_100000_AllWokenAndCompleted() => RecvParkedReceivers(count: 100_000);

    [Fact]
    public void Send_RacingReceiversAboutToPark_NoWakeUpIsLost() => SendRacingReceiversAboutToPark(rounds: 200);

    [Fact]
    public void Send_OsSendersAndGreenRelaysIntoOneSink_ManyRounds_EveryMessageOnceInOrder() => SendOsSendersAndGreenRelaysIntoOneSink(rounds: 20);
}
