using System;
using System.Linq;
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace ThreadIterators.Analyzers.Tests;

/// <summary>The analyzer assembly as the compiler loads it from the package: which analyzers it finds and what they report.</summary>
public sealed class AnalyzerLoadingTests
{
    [Fact]
    public void CompilerFindsBothAnalyzers_WithTheirRules()
    {
        var path = typeof(BlockingCallAnalyzer).Assembly.Location;
        var reference = new AnalyzerFileReference(path, new PlainLoader());

        var analyzers = reference.GetAnalyzers(LanguageNames.CSharp);

        Assert.Equal(
            new[] { "BlockingCallAnalyzer", "UnyieldedEventAnalyzer" },
            analyzers.Select(a => a.GetType().Name).OrderBy(n => n, StringComparer.Ordinal));
        var rules = analyzers.SelectMany(a => a.SupportedDiagnostics).OrderBy(d => d.Id, StringComparer.Ordinal).ToList();
        Assert.Equal(new[] { "TI0001", "TI0002" }, rules.Select(d => d.Id));
        Assert.All(rules, d => Assert.Equal(DiagnosticSeverity.Warning, d.DefaultSeverity));
        Assert.All(rules, d => Assert.Equal("Usage", d.Category));
        Assert.All(rules, d => Assert.True(d.IsEnabledByDefault));
        Assert.Equal("Blocking call in a green-thread body", rules[0].Title.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal("Event created but never yielded", rules[1].Title.ToString(System.Globalization.CultureInfo.InvariantCulture));
    }

    /// <summary>Loads the analyzer the plain way; it depends on nothing but the compiler, which is already loaded.</summary>
    private sealed class PlainLoader : IAnalyzerAssemblyLoader
    {
        public void AddDependencyLocation(string fullPath)
        {
        }

        public Assembly LoadFromPath(string fullPath) => Assembly.LoadFrom(fullPath);
    }
}
