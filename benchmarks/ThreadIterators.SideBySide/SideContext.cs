using System.IO;
using System.Reflection;
using System.Runtime.Loader;

namespace ThreadIterators.SideBySide;

/// <summary>A load context for one build's directory: its own copy of this tool and of the library it was built against.</summary>
internal sealed class SideContext : AssemblyLoadContext
{
    private readonly string _directory;

    internal SideContext(string directory)
        : base(directory)
    {
        _directory = directory;
    }

    /// <inheritdoc/>
    protected override Assembly? Load(AssemblyName assemblyName)
    {
        var path = Path.Combine(_directory, assemblyName.Name + ".dll");
        return File.Exists(path) ? LoadFromAssemblyPath(path) : null;
    }
}
