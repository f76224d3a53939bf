namespace ThreadIterators.Tests;

// The router body of RuntimeContract.Routing.Scenarios.cs at its stress size.
public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(RoutingStrategy.RoundRobin)]
    [InlineData(RoutingStrategy.SmallestMailbox)]
    public void Router_BoundedConsumers_GreenProducerPuts_EveryMessageOnce_InOrderPerConsumer_DepthBounded(RoutingStrategy strategy) => RouterBoundedConsumersGreenProducerPuts(strategy, messages: 60_000);
}
