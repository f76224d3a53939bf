using BenchmarkDotNet.Running;

namespace ThreadIterators.Benchmarks;

/// <summary>
/// <c>run ...</c> (or no arguments) starts the quick runner; anything else goes to BenchmarkDotNet's switcher, for
/// example <c>--list flat</c> or <c>--filter '*ThreadRing*'</c>.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length == 0 || args[0] == "run")
        {
            return QuickRunner.Runner.Execute(args);
        }

        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
        return 0;
    }
}
