using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;

namespace ThreadIterators.Analyzers.Tests;

/// <summary>
/// Compiles a C# snippet against ThreadIterators and the running runtime's assemblies, runs the package's analyzers on
/// it and checks their diagnostics against the snippet's markers: a line that should get a diagnostic ends with a
/// comment naming its id (<c>// TI0001</c>), and every other line should get none.
/// </summary>
internal static partial class Snippet
{
    /// <summary>The usings every snippet gets, on its first line, so snippets show only what they test.</summary>
    private const string Usings =
        "using System; using System.Collections.Concurrent; using System.Collections.Generic; using System.IO; "
        + "using System.Threading; using System.Threading.Tasks; using ThreadIterators;\n";

    /// <summary>The runtime's assemblies and ThreadIterators, loaded once for every snippet.</summary>
    private static readonly Lazy<ImmutableArray<MetadataReference>> s_references = new(LoadReferences);

    /// <summary>
    /// Asserts that <paramref name="source"/> compiles without errors and that the analyzers report exactly the
    /// marked diagnostics, in source order, each message naming the call and the body given for it in
    /// <paramref name="expected"/>.
    /// </summary>
    public static void Verify(string source, params (string Id, string Call, string Body)[] expected)
    {
        var diagnostics = Analyze(source);
        var markers = Markers(Usings + source);

        Assert.Equal(markers.Count, expected.Length);
        Assert.Equal(
            markers.Select(m => $"{m.Id} at line {m.Line}"),
            diagnostics.Select(d => $"{d.Id} at line {d.Location.GetLineSpan().StartLinePosition.Line + 1}"));
        for (var i = 0; i < expected.Length; i++)
        {
            Assert.Equal(markers[i].Id, expected[i].Id);
            var message = diagnostics[i].GetMessage(System.Globalization.CultureInfo.InvariantCulture);
            Assert.Contains($"'{expected[i].Call}'", message, StringComparison.Ordinal);
            Assert.Contains($"'{expected[i].Body}'", message, StringComparison.Ordinal);
        }
    }

    /// <summary>Asserts that <paramref name="source"/> compiles without errors and gets no diagnostic from the analyzers.</summary>
    public static void VerifyNone(string source) => Verify(source);

    /// <summary>
    /// Compiles <paramref name="source"/>, after the usings, asserts it has no errors, and returns the analyzers'
    /// diagnostics in source order.
    /// </summary>
    public static ImmutableArray<Diagnostic> Analyze(string source)
    {
        var tree = CSharpSyntaxTree.ParseText(Usings + source, new CSharpParseOptions(LanguageVersion.Latest), path: "Snippet.cs");
        var compilation = CSharpCompilation.Create(
            "Snippet",
            new[] { tree },
            s_references.Value,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));

        // A snippet that does not compile would get no diagnostics and pass for the wrong reason.
        var errors = compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        Assert.True(errors.Count == 0, "The snippet does not compile:\n" + string.Join("\n", errors));

        var analyzers = ImmutableArray.Create<DiagnosticAnalyzer>(new BlockingCallAnalyzer(), new UnyieldedEventAnalyzer());
        var diagnostics = compilation.WithAnalyzers(analyzers).GetAnalyzerDiagnosticsAsync().GetAwaiter().GetResult();
        return diagnostics.OrderBy(d => d.Location.SourceSpan.Start).ToImmutableArray();
    }

    /// <summary>The marked lines of <paramref name="text"/>, in order: the id each ends with, and its 1-based line number.</summary>
    private static List<(string Id, int Line)> Markers(string text) =>
        text.Split('\n')
            .Select((line, index) => (Match: MarkerPattern().Match(line), Line: index + 1))
            .Where(m => m.Match.Success)
            .Select(m => (m.Match.Groups[1].Value, m.Line))
            .ToList();

    /// <summary>Every assembly the runtime trusts (the test's own dependencies among them), and ThreadIterators.</summary>
    private static ImmutableArray<MetadataReference> LoadReferences()
    {
        var paths = new HashSet<string>(
            ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries),
            StringComparer.Ordinal)
        {
            typeof(Event).Assembly.Location,
        };
        return paths.Select(path => (MetadataReference)MetadataReference.CreateFromFile(path)).ToImmutableArray();
    }

    /// <summary>A marker: a line that ends with <c>// TI0001</c> (any id).</summary>
    [GeneratedRegex(@"//\s*(TI\d{4})\s*$")]
    private static partial Regex MarkerPattern();
}
