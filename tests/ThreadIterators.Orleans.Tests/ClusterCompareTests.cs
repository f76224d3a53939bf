using System;
using System.IO;
using System.Threading.Tasks;
using ThreadIterators.Cluster.Benchmarks;

namespace ThreadIterators.Orleans.Tests;

/// <summary>The cluster comparison runs end to end (its quick size), with its second node in a process of its own.</summary>
public sealed class ClusterCompareTests
{
    [Fact]
    public async Task TheQuickComparison_RunsEveryContender_AndWritesItsReport()
    {
        var output = Path.Combine(Path.GetTempPath(), $"cluster-compare-{Guid.NewGuid():N}");
        try
        {
            Assert.Equal(0, await ClusterCompare.RunAsync(["cluster-compare", "--quick", "--out", output]));
            var report = await File.ReadAllTextAsync(Path.Combine(output, "cluster-comparison.md"));
            Assert.Contains("| green threads on Orleans |", report, StringComparison.Ordinal);
            Assert.Contains("| raw Orleans |", report, StringComparison.Ordinal);
            Assert.Contains("## Verdicts", report, StringComparison.Ordinal);
        }
        finally
        {
            if (Directory.Exists(output))
            {
                Directory.Delete(output, recursive: true);
            }
        }
    }
}
