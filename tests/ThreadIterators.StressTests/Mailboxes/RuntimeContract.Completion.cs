using System.Threading.Tasks;

namespace ThreadIterators.Tests;

// The completion bodies of RuntimeContract.Completion.Scenarios.cs at stress sizes.
public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(false, 0)]
    [InlineData(false, 8)]
    [InlineData(true, 0)]
    [InlineData(true, 8)]
    public Task Complete_RacingOsAndGreenSenders_EverySendThatReturnedArrivesOnceBeforeTheEnd_NoRefusedOneArrives(bool shared, int capacity) =>
        CompleteRacingSenders(shared, capacity, before: 5_000, rounds: 100);
}
