using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace ThreadIterators.Analyzers;

/// <summary>
/// A green-thread body: an iterator method, accessor or local function whose return type is
/// <c>IEnumerable&lt;Event&gt;</c> or <c>IEnumerator&lt;Event&gt;</c> (of <c>ThreadIterators.Event</c> or a type derived
/// from it). Its own statements run on a scheduler worker, one turn at a time; those of a lambda or of a local
/// function that is not itself a body run wherever and whenever they are called, and do not belong to it.
/// </summary>
internal sealed class GreenThreadBody
{
    /// <summary>The metadata name of the type every event derives from.</summary>
    public const string EventMetadataName = "ThreadIterators.Event";

    private GreenThreadBody(string name, BlockSyntax block)
    {
        Name = name;
        Block = block;
    }

    /// <summary>Gets the name diagnostics give the body: its method's, local function's or property's name.</summary>
    public string Name { get; }

    /// <summary>Gets the body's block, which holds its yields.</summary>
    public BlockSyntax Block { get; }

    /// <summary>
    /// Finds the green-thread body whose own statements contain <paramref name="node"/>: null when the nearest
    /// enclosing function is a lambda, is not an iterator of events, or when <paramref name="node"/> is outside every
    /// function.
    /// </summary>
    public static GreenThreadBody? Enclosing(SyntaxNode node, SemanticModel model, INamedTypeSymbol eventType, CancellationToken cancellationToken)
    {
        foreach (var ancestor in node.Ancestors())
        {
            switch (ancestor)
            {
                case AnonymousFunctionExpressionSyntax:
                    // A lambda cannot be an iterator, and what it does runs where it is called: on the thread pool
                    // for TaskEvent.RunBlocking and Task.Run, later for a callback. Not the body's own work.
                    return null;
                case LocalFunctionStatementSyntax local:
                    return From(ancestor, local.Body, node, model, eventType, cancellationToken);
                case BaseMethodDeclarationSyntax method:
                    return From(ancestor, method.Body, node, model, eventType, cancellationToken);
                case AccessorDeclarationSyntax accessor:
                    return From(ancestor, accessor.Body, node, model, eventType, cancellationToken);
                case MemberDeclarationSyntax:
                    // A field initializer, an expression-bodied property: never an iterator.
                    return null;
            }
        }

        return null;
    }

    /// <summary>Tells whether <paramref name="type"/> is <paramref name="eventType"/> or derives from it.</summary>
    public static bool IsEvent(ITypeSymbol? type, INamedTypeSymbol eventType)
    {
        for (var current = type; current is not null; current = current.BaseType)
        {
            if (SymbolEqualityComparer.Default.Equals(current.OriginalDefinition, eventType))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The body <paramref name="function"/> declares, if it is one and <paramref name="node"/> is in its block.</summary>
    private static GreenThreadBody? From(
        SyntaxNode function, BlockSyntax? block, SyntaxNode node, SemanticModel model, INamedTypeSymbol eventType, CancellationToken cancellationToken)
    {
        // An expression body cannot yield; a node in a parameter's default value or an attribute is not run by the body.
        if (block is null || !block.Span.Contains(node.Span))
        {
            return null;
        }

        if (model.GetDeclaredSymbol(function, cancellationToken) is not IMethodSymbol method
            || !ReturnsEvents(method, eventType)
            || !Yields(block))
        {
            return null;
        }

        var name = method.MethodKind is MethodKind.PropertyGet or MethodKind.PropertySet && method.AssociatedSymbol is { } property
            ? property.Name
            : method.Name;
        return new GreenThreadBody(name, block);
    }

    /// <summary>Tells whether <paramref name="method"/> returns a sequence or an enumerator of events.</summary>
    private static bool ReturnsEvents(IMethodSymbol method, INamedTypeSymbol eventType) =>
        method.ReturnType is INamedTypeSymbol { TypeArguments.Length: 1 } returned
        && returned.OriginalDefinition.SpecialType is SpecialType.System_Collections_Generic_IEnumerable_T or SpecialType.System_Collections_Generic_IEnumerator_T
        && IsEvent(returned.TypeArguments[0], eventType);

    /// <summary>
    /// Tells whether <paramref name="block"/> itself yields, which makes its function an iterator (the compiler's
    /// symbols do not say so); a yield inside a nested local function belongs to that function.
    /// </summary>
    private static bool Yields(BlockSyntax block) =>
        block.DescendantNodes(static n => n is not (AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax))
            .Any(static n => n is YieldStatementSyntax);
}
