using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace ThreadIterators.Analyzers;

/// <summary>Where a diagnostic about a call points: at the member called, not at the whole receiver chain.</summary>
internal static class DiagnosticLocations
{
    /// <summary>
    /// The span from the called member's name to the end of <paramref name="syntax"/>: <c>Wait()</c> in
    /// <c>Task.WhenAll(a, b).Wait()</c>, so a chain split over lines points at the line that blocks.
    /// </summary>
    public static Location OfMember(SyntaxNode syntax)
    {
        var callee = syntax is InvocationExpressionSyntax invocation ? invocation.Expression : syntax;
        SimpleNameSyntax? name = callee switch
        {
            MemberAccessExpressionSyntax access => access.Name,
            MemberBindingExpressionSyntax binding => binding.Name,
            _ => null,
        };
        return name is null
            ? syntax.GetLocation()
            : Location.Create(syntax.SyntaxTree, TextSpan.FromBounds(name.SpanStart, syntax.Span.End));
    }
}
