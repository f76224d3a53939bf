namespace ThreadIterators.Tests;

// The credit-window body of RuntimeContract.CreditWindow.Scenarios.cs at its stress size.
public abstract partial class RuntimeContract
{
    [Fact]
    public void CreditWindow_TwoProducersOneWindow_NeverMoreThanWindowUnacknowledged_EveryMessageInOrder() => CreditWindowTwoProducersOneWindow(perProducer: 20_000);
}
