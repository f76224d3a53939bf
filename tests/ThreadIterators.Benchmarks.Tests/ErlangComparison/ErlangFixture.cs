using System.IO;
using ThreadIterators.Benchmarks.ErlangComparison;

namespace ThreadIterators.Tests;

/// <summary>
/// The Erlang benchmark programs compiled once for a test class. Finds <c>erl</c> the way the comparison does: on
/// PATH, or installed from Debian's erlang-nox when running as root; otherwise the tests fail saying what to install.
/// </summary>
public sealed class ErlangFixture
{
    public ErlangFixture()
    {
        var tools = DebianTools.Require([("erl", "erlang-nox"), ("erlc", "erlang-nox")], _ => { });
        var sources = Path.Combine(ErlangCommand.RepositoryRoot(), "benchmarks", "erlang");
        Runtime = ErlangRuntime.Compile(tools["erl"], tools["erlc"], sources, Directory.CreateTempSubdirectory("erlang-tests-").FullName);
    }

    internal ErlangRuntime Runtime { get; }
}
