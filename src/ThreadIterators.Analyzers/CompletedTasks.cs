using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace ThreadIterators.Analyzers;

/// <summary>
/// Recognizes a read of a task that the body has already waited for or checked, where <c>Result</c> or
/// <c>GetResult()</c> returns at once: after <c>yield return task.AsEvent();</c>, or under
/// <c>if (task.IsCompletedSuccessfully)</c>, the usual fast path for a value task. A textual look, not a flow
/// analysis: it errs towards silence, as a warning that builds treat as an error must.
/// </summary>
internal static class CompletedTasks
{
    /// <summary>
    /// Tells whether the task that <paramref name="operation"/> reads (<c>task.Result</c>, <c>task.Wait()</c>,
    /// <c>task.GetAwaiter().GetResult()</c>) is a local, parameter or field that <paramref name="body"/> yields or
    /// checks for completion before this point.
    /// </summary>
    public static bool WaitedForBefore(IOperation operation, GreenThreadBody body, SemanticModel model, CancellationToken cancellationToken)
    {
        if (TaskSymbol(operation) is not { } task)
        {
            return false;
        }

        return body.Block.DescendantNodes()
            .OfType<IdentifierNameSyntax>()
            .Where(identifier => identifier.SpanStart < operation.Syntax.SpanStart && identifier.Identifier.ValueText == task.Name)
            .Where(identifier => IsYielded(identifier) || IsCompletionCheck(identifier))
            .Any(identifier => SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(identifier, cancellationToken).Symbol, task));
    }

    /// <summary>The local, parameter or field whose task <paramref name="operation"/> reads, through any <c>GetAwaiter()</c> or <c>ConfigureAwait(...)</c>.</summary>
    private static ISymbol? TaskSymbol(IOperation operation)
    {
        var instance = operation switch
        {
            IInvocationOperation invocation => invocation.Instance,
            IPropertyReferenceOperation property => property.Instance,
            _ => null,
        };
        while (true)
        {
            switch (instance)
            {
                case IInvocationOperation { TargetMethod.Name: "GetAwaiter" or "ConfigureAwait" } unwrap:
                    instance = unwrap.Instance;
                    continue;
                case IConversionOperation { IsImplicit: true } conversion:
                    instance = conversion.Operand;
                    continue;
                case ILocalReferenceOperation local:
                    return local.Local;
                case IParameterReferenceOperation parameter:
                    return parameter.Parameter;
                case IFieldReferenceOperation field:
                    return field.Field;
                default:
                    return null;
            }
        }
    }

    /// <summary>Tells whether <paramref name="identifier"/> is part of what a <c>yield return</c> yields.</summary>
    private static bool IsYielded(IdentifierNameSyntax identifier) =>
        identifier.FirstAncestorOrSelf<StatementSyntax>() is YieldStatementSyntax;

    /// <summary>Tells whether <paramref name="identifier"/> is asked whether it has completed: <c>task.IsCompleted</c> and the like.</summary>
    private static bool IsCompletionCheck(IdentifierNameSyntax identifier) =>
        identifier.Parent is MemberAccessExpressionSyntax access
        && access.Expression == identifier
        && access.Name.Identifier.ValueText is "IsCompleted" or "IsCompletedSuccessfully" or "IsFaulted" or "IsCanceled" or "Status";
}
