using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace ThreadIterators.Analyzers;

/// <summary>
/// TI0002: a green-thread body creates an event and never yields it, either as a statement of its own
/// (<c>box.Put(1);</c>) or into a local that nothing reads. An event stored anywhere else, passed, returned, yielded
/// or discarded on purpose (<c>_ = box.Put(1);</c>) is left alone: where it goes is then the author's decision.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
internal sealed class UnyieldedEventAnalyzer : DiagnosticAnalyzer
{
    /// <summary>The end of the message for a put: what not yielding it costs.</summary>
    private const string PutConsequence = "or the message is dropped when the mailbox is full";

    /// <summary>The end of the message for a sub-body call.</summary>
    private const string CallConsequence = "or the sub-body never runs";

    /// <summary>The name of the sub-body call types, <c>BodyCall</c> and <c>BodyCall&lt;T&gt;</c>.</summary>
    private const string CallTypeName = "BodyCall";

    /// <summary>The end of the message for any other event.</summary>
    private const string WaitConsequence = "or the thread does not wait for it";

    /// <inheritdoc/>
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptors.UnyieldedEvent);

    /// <inheritdoc/>
    public override void Initialize(AnalysisContext context)
    {
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.EnableConcurrentExecution();
        context.RegisterCompilationStartAction(Start);
    }

    /// <summary>Resolves the event type once per compilation; one that does not reference ThreadIterators has no events.</summary>
    private static void Start(CompilationStartAnalysisContext context)
    {
        if (context.Compilation.GetTypeByMetadataName(GreenThreadBody.EventMetadataName) is not { } eventType)
        {
            return;
        }

        context.RegisterOperationAction(c => AnalyzeStatement(c, eventType), OperationKind.ExpressionStatement);
        context.RegisterOperationAction(c => AnalyzeDeclarator(c, eventType), OperationKind.VariableDeclarator);
        context.RegisterOperationAction(c => AnalyzeAssignment(c, eventType), OperationKind.SimpleAssignment);
    }

    /// <summary><c>box.Put(1);</c>: the statement creates an event and drops it.</summary>
    private static void AnalyzeStatement(OperationAnalysisContext context, INamedTypeSymbol eventType)
    {
        var statement = (IExpressionStatementOperation)context.Operation;
        if (Creation(statement.Operation, eventType) is { } creation
            && Body(context, eventType) is { } body)
        {
            Report(context, creation, body, "yield return it");
        }
    }

    /// <summary><c>var put = box.Put(1);</c> with <c>put</c> never read.</summary>
    private static void AnalyzeDeclarator(OperationAnalysisContext context, INamedTypeSymbol eventType)
    {
        var declarator = (IVariableDeclaratorOperation)context.Operation;
        var initializer = declarator.Initializer ?? (declarator.Parent as IVariableDeclarationOperation)?.Initializer;
        if (initializer is not null)
        {
            AnalyzeLocal(context, declarator.Symbol, initializer.Value, eventType);
        }
    }

    /// <summary><c>put = box.Put(2);</c> as a statement, into a local never read.</summary>
    private static void AnalyzeAssignment(OperationAnalysisContext context, INamedTypeSymbol eventType)
    {
        var assignment = (ISimpleAssignmentOperation)context.Operation;

        // Only a statement: in `yield return put = box.Put(2)` the assignment's value is used.
        if (assignment.Parent is IExpressionStatementOperation && assignment.Target is ILocalReferenceOperation target)
        {
            AnalyzeLocal(context, target.Local, assignment.Value, eventType);
        }
    }

    /// <summary>Reports an event created into <paramref name="local"/> if the body never reads that local.</summary>
    private static void AnalyzeLocal(OperationAnalysisContext context, ILocalSymbol local, IOperation value, INamedTypeSymbol eventType)
    {
        if (Creation(value, eventType) is { } creation
            && Body(context, eventType) is { } body
            && !IsRead(local, body.Block, context.Operation.SemanticModel!, context.CancellationToken))
        {
            Report(context, creation, body, $"yield return '{local.Name}', which is never read");
        }
    }

    /// <summary>The green-thread body whose own statement the analyzed operation is, if any.</summary>
    private static GreenThreadBody? Body(OperationAnalysisContext context, INamedTypeSymbol eventType) =>
        context.Operation.SemanticModel is { } model
            ? GreenThreadBody.Enclosing(context.Operation.Syntax, model, eventType, context.CancellationToken)
            : null;

    /// <summary>
    /// The call or <c>new</c> that <paramref name="value"/> is, if it makes an event: not one that arms an event
    /// it is called on and returns it (<c>taskEvent.For(task)</c>), since its caller still holds that event.
    /// </summary>
    private static IOperation? Creation(IOperation value, INamedTypeSymbol eventType)
    {
        while (true)
        {
            switch (value)
            {
                case IConversionOperation { IsImplicit: true } conversion:
                    value = conversion.Operand;
                    continue;
                case IConditionalAccessOperation conditional:
                    value = conditional.WhenNotNull;
                    continue;
                // The library's own calls only: another method that returns an event may hand back one it was given
                // (xUnit's Assert.IsType returns its argument), which dropping loses nothing.
                case IInvocationOperation invocation when (GreenThreadBody.IsEvent(invocation.Type, eventType) || IsCall(invocation.Type, eventType))
                    && SymbolEqualityComparer.Default.Equals(invocation.TargetMethod.ContainingAssembly, eventType.ContainingAssembly)
                    && !Arms(invocation.TargetMethod, eventType):
                    return invocation;
                // One that arms the event it is called on and returns it, called on a fresh one
                // (Event.Call(helper).Catch()): that fresh one is the creation dropped.
                case IInvocationOperation { Instance: { } instance } arming when Arms(arming.TargetMethod, eventType):
                    value = instance;
                    continue;
                case IObjectCreationOperation creation when GreenThreadBody.IsEvent(creation.Type, eventType):
                    return creation;
                default:
                    return null;
            }
        }
    }

    /// <summary>Tells whether <paramref name="method"/> is an event's own method that returns that event.</summary>
    private static bool Arms(IMethodSymbol method, INamedTypeSymbol eventType) =>
        !method.IsStatic
        && (GreenThreadBody.IsEvent(method.ContainingType, eventType) || IsCall(method.ContainingType, eventType))
        && SymbolEqualityComparer.Default.Equals(method.ReturnType, method.ContainingType);

    /// <summary>
    /// Tells whether <paramref name="scope"/> reads <paramref name="local"/> anywhere: a plain overwrite
    /// (<c>put = ...;</c>) is no read; any other use, a capture by a lambda included, is.
    /// </summary>
    private static bool IsRead(ILocalSymbol local, SyntaxNode scope, SemanticModel model, CancellationToken cancellationToken) =>
        scope.DescendantNodes()
            .OfType<IdentifierNameSyntax>()
            .Where(identifier => identifier.Identifier.ValueText == local.Name)
            .Where(identifier => SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(identifier, cancellationToken).Symbol, local))
            .Any(identifier => !IsOverwritten(identifier));

    /// <summary>Tells whether <paramref name="identifier"/> is the target of an assignment that is a statement of its own.</summary>
    private static bool IsOverwritten(IdentifierNameSyntax identifier) =>
        identifier.Parent is AssignmentExpressionSyntax assignment
        && assignment.IsKind(SyntaxKind.SimpleAssignmentExpression)
        && assignment.Left == identifier
        && assignment.Parent is ExpressionStatementSyntax;

    /// <summary>
    /// Tells whether <paramref name="type"/> is a sub-body call (<c>BodyCall</c> or <c>BodyCall&lt;T&gt;</c>, made by
    /// <c>Event.Call</c>): a value that converts to the event a body yields, and whose sub-body runs only if it is yielded.
    /// </summary>
    private static bool IsCall(ITypeSymbol? type, INamedTypeSymbol eventType) =>
        type is INamedTypeSymbol { IsValueType: true, Name: CallTypeName } named
        && SymbolEqualityComparer.Default.Equals(named.ContainingAssembly, eventType.ContainingAssembly);

    /// <summary>Reports the event <paramref name="creation"/> makes, naming it and the body.</summary>
    private static void Report(OperationAnalysisContext context, IOperation creation, GreenThreadBody body, string remedy)
    {
        var (display, consequence) = creation switch
        {
            IInvocationOperation invocation => (
                $"{invocation.TargetMethod.ContainingType.Name}.{invocation.TargetMethod.Name}",
                IsPut(invocation.TargetMethod) ? PutConsequence : invocation.Type is { IsValueType: true, Name: CallTypeName } ? CallConsequence : WaitConsequence),
            _ => ($"new {creation.Type?.Name}", WaitConsequence),
        };
        context.ReportDiagnostic(Diagnostic.Create(
            Descriptors.UnyieldedEvent, DiagnosticLocations.OfMember(creation.Syntax), display, body.Name, $"{remedy}, {consequence}"));
    }

    /// <summary>Tells whether <paramref name="method"/> is a library put: a message target's <c>Put</c>.</summary>
    private static bool IsPut(IMethodSymbol method) =>
        method.Name == "Put" && method.ContainingNamespace?.ToDisplayString() == "ThreadIterators";
}
