using System.Linq;
using System.Reflection;

namespace ThreadIterators.Tests;

/// <summary>
/// <see cref="Event"/> keeps only the hooks every event must know; what only some events do is an interface they
/// implement (a choice's branch, a timed wait's source, a wait for a message), so a new capability cannot quietly widen
/// the base class every event derives from.
/// </summary>
public sealed class EventHookTests
{
    [Fact]
    public void Event_HasTheSixHooksEveryEventKnows_AndNoOther()
    {
        var hooks = typeof(Event)
            .GetMethods(BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.DeclaredOnly)
            .Where(static m => m.IsVirtual && !m.IsFinal && (m.IsAssembly || m.IsFamilyOrAssembly))
            .Select(static m => m.Name)
            .Order(System.StringComparer.Ordinal)
            .ToList();

        Assert.Equal(["Abandon", "CompleteInterrupt", "DescribeWait", "Park", "Resume", "TryInterrupt"], hooks);
    }
}
