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
            foreach (var contender in new[] { "green threads on Orleans", "raw Orleans", "Akka.Remote", "Proto.Remote", "Erlang distribution" })
            {
                Assert.Contains($"| {contender} | ", report, StringComparison.Ordinal);
                Assert.DoesNotContain($"| {contender} | failed", report, StringComparison.Ordinal);
            }

            Assert.Contains("## Verdicts", report, StringComparison.Ordinal);
            Assert.Contains("](cluster-comparison.png)", report, StringComparison.Ordinal);
            Assert.True(new FileInfo(Path.Combine(output, "cluster-comparison.png")).Length > 0, "The chart is empty.");
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
