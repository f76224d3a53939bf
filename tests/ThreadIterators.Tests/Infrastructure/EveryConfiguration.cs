namespace ThreadIterators.Tests;

/// <summary>
/// The scheduler configurations a theory runs under when it is not a <see cref="SchedulerContract"/>: every policy
/// on 1, 2 and 4 workers, as the contract's subclasses are.
/// </summary>
public static class EveryConfiguration
{
    /// <summary>Gets the worker counts and policies, for <c>[MemberData]</c>.</summary>
    public static TheoryData<int, SchedulingPolicy> WorkersAndPolicies()
    {
        var data = new TheoryData<int, SchedulingPolicy>();
        foreach (var policy in new[] { SchedulingPolicy.WorkStealing, SchedulingPolicy.SoftAffinity, SchedulingPolicy.Dedicated, SchedulingPolicy.SharedQueue })
        {
            foreach (var workers in new[] { 1, 2, 4 })
            {
                data.Add(workers, policy);
            }
        }

        return data;
    }
}
