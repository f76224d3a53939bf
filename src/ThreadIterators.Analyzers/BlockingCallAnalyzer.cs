using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace ThreadIterators.Analyzers;

/// <summary>
/// TI0001: a green-thread body calls a known blocking API (<see cref="BlockingApiTable"/>). Only the body's own
/// statements count: a lambda inside it, such as the one given to <c>TaskEvent.RunBlocking</c> or <c>Task.Run</c>, runs
/// elsewhere. A task's result read after the body has yielded or checked that task does not block
/// (<see cref="CompletedTasks"/>).
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
internal sealed class BlockingCallAnalyzer : DiagnosticAnalyzer
{
    /// <inheritdoc/>
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptors.BlockingCall);

    /// <inheritdoc/>
    public override void Initialize(AnalysisContext context)
    {
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.EnableConcurrentExecution();
        context.RegisterCompilationStartAction(Start);
    }

    /// <summary>Resolves the blocking members once per compilation; one that does not reference ThreadIterators has no bodies.</summary>
    private static void Start(CompilationStartAnalysisContext context)
    {
        if (context.Compilation.GetTypeByMetadataName(GreenThreadBody.EventMetadataName) is not { } eventType)
        {
            return;
        }

        var table = BlockingApiTable.Create(context.Compilation);
        context.RegisterOperationAction(
            c => Report(c, table.Find(((IInvocationOperation)c.Operation).TargetMethod), eventType),
            OperationKind.Invocation);
        context.RegisterOperationAction(
            c => Report(c, table.Find(((IPropertyReferenceOperation)c.Operation).Property), eventType),
            OperationKind.PropertyReference);
    }

    /// <summary>Reports <paramref name="api"/>, when the operation calls one, if the operation is a body's own.</summary>
    private static void Report(OperationAnalysisContext context, BlockingApi? api, INamedTypeSymbol eventType)
    {
        var operation = context.Operation;
        if (api is null || operation.SemanticModel is not { } model || InNameOf(operation))
        {
            return;
        }

        if (GreenThreadBody.Enclosing(operation.Syntax, model, eventType, context.CancellationToken) is { } body
            && !(api.ReadsTask && CompletedTasks.WaitedForBefore(operation, body, model, context.CancellationToken)))
        {
            context.ReportDiagnostic(Diagnostic.Create(
                Descriptors.BlockingCall, DiagnosticLocations.OfMember(operation.Syntax), api.Display, body.Name, api.Advice));
        }
    }

    /// <summary>Tells whether <paramref name="operation"/> is only named, in <c>nameof(task.Result)</c>, and never runs.</summary>
    private static bool InNameOf(IOperation operation)
    {
        for (var parent = operation.Parent; parent is not null; parent = parent.Parent)
        {
            if (parent is INameOfOperation)
            {
                return true;
            }
        }

        return false;
    }
}
