using BenchmarkDotNet.Running;
using ThreadIterators.Benchmarks.ChatComparison;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Benchmarks.PolicyComparison;
using ThreadIterators.Benchmarks.QuickRunner;
using ThreadIterators.Benchmarks.TestingComparison;
using ThreadIterators.Benchmarks.WordCountComparison;

namespace ThreadIterators.Benchmarks;

/// <summary>
/// <c>run ...</c> (or no arguments) starts the quick runner; <c>compare ...</c> runs the comparison against Erlang;
/// <c>policies ...</c> compares the scheduling policies; <c>footprint ...</c> measures a parked thread; <c>flood ...</c> floods a bounded mailbox; <c>wordcount ...</c> runs the producer/consumer word count; <c>latency ...</c> measures how late threads woken from outside the workers run under load; <c>burst ...</c> how long a burst of them takes; <c>stranded ...</c> how late a thread stranded in a run-next slot runs after the scheduler idled; <c>chat-compare ...</c> runs the chat server comparison (green threads, async/await, Erlang), and <c>chat-server ...</c> and <c>chat-load ...</c> run one of its servers and its load client; <c>chat-latency ...</c> measures the green one's receive completion-to-handled latency, heartbeat and working set on given worker counts; <c>testing ...</c> explores the five classic bugs of samples/Testing here and on Coyote; anything else goes to BenchmarkDotNet's switcher, for example
/// <c>--list flat</c> or <c>--filter '*ThreadRing*'</c>.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length == 0 || args[0] == "run")
        {
            return Runner.Execute(args);
        }

        if (args[0] == "compare")
        {
            return ErlangCommand.Execute(args);
        }

        if (args[0] == "policies")
        {
            return PolicyCommand.Execute(args);
        }

        if (args[0] == "footprint")
        {
            return FootprintCommand.Execute(args);
        }

        if (args[0] == "flood")
        {
            return FloodCommand.Execute(args);
        }

        if (args[0] == "burst")
        {
            return BurstCommand.Execute(args);
        }

        if (args[0] == "stranded")
        {
            return StrandedCommand.Execute(args);
        }

        if (args[0] == "latency")
        {
            return LatencyCommand.Execute(args);
        }

        if (args[0] == "wordcount")
        {
            return WordCountCommand.Execute(args);
        }

        if (args[0] == "chat-server")
        {
            return ChatCommand.Server(args);
        }

        if (args[0] == "chat-load")
        {
            return ChatCommand.Load(args);
        }

        if (args[0] == "testing")
        {
            return TestingCommand.Execute(args);
        }

        if (args[0] == "chat-latency")
        {
            return ChatLatencyCommand.Execute(args);
        }

        if (args[0] == "chat-compare")
        {
            return ChatCompareCommand.Execute(args);
        }

        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
        return 0;
    }
}
