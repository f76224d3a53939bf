using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace ThreadIterators.Tests;

/// <summary>
/// The library's folders and the type references between them, read from the compiled assembly: every type the IL
/// of a type names (its base, interfaces, fields, signatures, locals and the operands of its method bodies, nested
/// and compiler-generated types counted as their outermost type's), mapped to the folder of the file that declares it.
/// </summary>
internal static partial class LibraryLayers
{
    /// <summary>The core: the folders that name no feature. Every other folder is a feature that plugs into them.</summary>
    internal static readonly string[] Core = ["Events", "Threads", "Scheduling", "Waiting", "Mailboxes", "Timers"];

    /// <summary>The features: each plugs into the core through the internal interfaces the core declares.</summary>
    internal static readonly string[] Features = ["Tasks", "Channels", "Replies", "Watching", "Supervision", "FlowControl", "Pull", "Routing", "Diagnostics", "ScheduledSends"];

    /// <summary>The library's source folder.</summary>
    internal static string SourceRoot
    {
        get
        {
            for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            {
                if (File.Exists(Path.Combine(dir.FullName, "ThreadIterators.sln")))
                {
                    return Path.Combine(dir.FullName, "src", "ThreadIterators");
                }
            }

            throw new InvalidOperationException($"No ThreadIterators.sln above {AppContext.BaseDirectory}: the test reads the library's sources beside it.");
        }
    }

    /// <summary>
    /// Maps each type name (without generic arity) to the top folder of the file named after it: one type per file,
    /// named after it, a big type split into <c>Type.Concern.cs</c> partials, <c>TypeOfT.cs</c> for a generic twin.
    /// </summary>
    internal static Dictionary<string, string> FoldersByTypeName()
    {
        var map = new Dictionary<string, string>(StringComparer.Ordinal);
        var root = SourceRoot;
        foreach (var file in Directory.EnumerateFiles(root, "*.cs", SearchOption.AllDirectories))
        {
            var relative = Path.GetRelativePath(root, file).Replace('\\', '/');
            if (relative.StartsWith("obj/", StringComparison.Ordinal) || relative.StartsWith("bin/", StringComparison.Ordinal) || !relative.Contains('/', StringComparison.Ordinal))
            {
                continue;
            }

            var folder = relative[..relative.IndexOf('/', StringComparison.Ordinal)];
            var name = Path.GetFileNameWithoutExtension(file).Split('.')[0];
            if (name.EndsWith("OfT", StringComparison.Ordinal))
            {
                name = name[..^3];
            }

            if (map.TryGetValue(name, out var other) && other != folder)
            {
                throw new InvalidOperationException($"Type {name} has files in both {other}/ and {folder}/.");
            }

            map[name] = folder;
        }

        return map;
    }

    /// <summary>
    /// Every reference from a type in one of <paramref name="from"/> to a type in one of <paramref name="to"/>, as
    /// "Folder/Type names Folder/Type", sorted.
    /// </summary>
    internal static List<string> References(string assemblyPath, IReadOnlyCollection<string> from, IReadOnlyCollection<string> to)
    {
        var folders = FoldersByTypeName();
        using var module = ModuleDefinition.ReadModule(assemblyPath);
        var found = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var type in module.GetTypes())
        {
            var owner = Outermost(type);
            if (!IsLibraryType(owner))
            {
                continue;
            }

            var ownerFolder = FolderOf(owner, folders);
            if (!from.Contains(ownerFolder))
            {
                continue;
            }

            foreach (var named in NamedBy(type))
            {
                var target = Outermost(named);
                if (!IsLibraryType(target) || target == owner)
                {
                    continue;
                }

                var targetFolder = FolderOf(target, folders);
                if (to.Contains(targetFolder))
                {
                    found.Add($"{ownerFolder}/{Plain(owner.Name)} names {targetFolder}/{Plain(target.Name)}");
                }
            }
        }

        return [.. found];
    }

    /// <summary>The top folders of the library's sources that hold .cs files.</summary>
    internal static List<string> SourceFolders() => [.. FoldersByTypeName().Values.Distinct().Order(StringComparer.Ordinal)];

    /// <summary>The folder of a library type, or a failure naming a type no file is named after.</summary>
    private static string FolderOf(TypeDefinition type, Dictionary<string, string> folders) =>
        folders.TryGetValue(Plain(type.Name), out var folder)
            ? folder
            : throw new InvalidOperationException($"{type.FullName} is in no file named after it (one type per file, named after it).");

    private static bool IsLibraryType(TypeDefinition type) =>
        type.Namespace.StartsWith("ThreadIterators", StringComparison.Ordinal) && !type.Name.StartsWith('<');

    private static string Plain(string name) => ArityRegex().Replace(name, string.Empty);

    private static TypeDefinition Outermost(TypeDefinition type)
    {
        while (type.DeclaringType is { } declaring)
        {
            type = declaring;
        }

        return type;
    }

    /// <summary>The library's own types that <paramref name="type"/>'s metadata and IL name.</summary>
    private static IEnumerable<TypeDefinition> NamedBy(TypeDefinition type)
    {
        var references = new List<TypeReference>();
        if (type.BaseType is not null)
        {
            references.Add(type.BaseType);
        }

        references.AddRange(type.Interfaces.Select(static i => i.InterfaceType));
        references.AddRange(type.GenericParameters.SelectMany(static p => p.Constraints).Select(static c => c.ConstraintType));
        references.AddRange(type.Fields.Select(static f => f.FieldType));
        references.AddRange(type.Properties.Select(static p => p.PropertyType));
        references.AddRange(type.Events.Select(static e => e.EventType));
        foreach (var method in type.Methods)
        {
            AddMethod(method, references);
            references.AddRange(method.Overrides.Select(static o => o.DeclaringType));
            if (!method.HasBody)
            {
                continue;
            }

            references.AddRange(method.Body.Variables.Select(static v => v.VariableType));
            foreach (var instruction in method.Body.Instructions)
            {
                switch (instruction.Operand)
                {
                    case TypeReference t:
                        references.Add(t);
                        break;
                    case MethodReference m:
                        references.Add(m.DeclaringType);
                        AddMethod(m, references);
                        break;
                    case FieldReference f:
                        references.Add(f.DeclaringType);
                        references.Add(f.FieldType);
                        break;
                }
            }
        }

        var seen = new HashSet<TypeDefinition>();
        foreach (var reference in references.SelectMany(Expand))
        {
            if (reference.Module == type.Module && reference.Scope == type.Module && reference.Resolve() is { } definition && seen.Add(definition))
            {
                yield return definition;
            }
        }
    }

    private static void AddMethod(MethodReference method, List<TypeReference> into)
    {
        into.Add(method.ReturnType);
        into.AddRange(method.Parameters.Select(static p => p.ParameterType));
        if (method is GenericInstanceMethod generic)
        {
            into.AddRange(generic.GenericArguments);
        }
    }

    /// <summary>A reference and the types inside it: a generic instance's arguments, an array's or a byref's element.</summary>
    private static IEnumerable<TypeReference> Expand(TypeReference reference)
    {
        switch (reference)
        {
            case GenericParameter:
                yield break;
            case GenericInstanceType generic:
                foreach (var inner in Expand(generic.ElementType).Concat(generic.GenericArguments.SelectMany(Expand)))
                {
                    yield return inner;
                }

                yield break;
            case TypeSpecification specification:
                foreach (var inner in Expand(specification.ElementType))
                {
                    yield return inner;
                }

                yield break;
            default:
                yield return reference;
                break;
        }
    }

    [GeneratedRegex("`[0-9]+$")]
    private static partial Regex ArityRegex();
}
