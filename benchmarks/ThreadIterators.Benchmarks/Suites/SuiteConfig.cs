using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters.Json;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// The one configuration every suite shares: allocation columns and JSON reports, added to the default configuration,
/// which already exports GitHub markdown.
/// </summary>
public sealed class SuiteConfig : ManualConfig
{
    public SuiteConfig()
    {
        AddDiagnoser(MemoryDiagnoser.Default);
        AddExporter(JsonExporter.Full);
    }
}
