using System.IO;
using ThreadIterators.Benchmarks.ChatComparison;

namespace ThreadIterators.Tests;

/// <summary>
/// The chat comparison's one command, at toy sizes: all three servers in processes of their own, every line checked,
/// the report and the chart written. Needs erl (see <see cref="ErlangFixture"/>).
/// </summary>
public sealed class ChatCompareTests
{
    [Fact]
    public void ChatCompare_Quick_RunsEveryServer_AndWritesTheReportAndChart()
    {
        var output = Directory.CreateTempSubdirectory("chat-compare-").FullName;
        try
        {
            Assert.Equal(0, ChatCompareCommand.Execute(["chat-compare", "--quick", "--out", output]));
            var report = File.ReadAllText(Path.Combine(output, ChatReport.FileName));
            Assert.Contains("| green | 2 | 0 | 0 | 0 |", report);
            Assert.Contains("| async | 2 | 0 | 0 | 0 |", report);
            Assert.Contains("| erlang | 2 | 0 | 0 | 0 |", report);
            Assert.Contains("## Misbehaving clients", report);
            Assert.True(new FileInfo(Path.Combine(output, ChatReport.ChartName)).Length > 0);
        }
        finally
        {
            Directory.Delete(output, recursive: true);
        }
    }
}
