using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Json;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>The one configuration every suite shares: allocation columns, GitHub markdown and JSON reports.</summary>
public sealed class SuiteConfig : ManualConfig
{
    public SuiteConfig()
    {
        AddDiagnoser(MemoryDiagnoser.Default);
        AddExporter(MarkdownExporter.GitHub);
        AddExporter(JsonExporter.Full);
        WithOptions(ConfigOptions.JoinSummary);
    }
}
