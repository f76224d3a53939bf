using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using ThreadIterators.SideBySide;

// Times one workload on two or more builds of the library in one process, so that the machine's drift between
// processes cancels: each build's directory (this tool built against that library) is loaded in a context of its own,
// all are warmed, then every round runs each build once, in a rotating order. Prints each build's median ratio to the
// first build over the rounds. A process's JIT makes choices of its own, so run it several times and read the spread.
if (args.Length < 3)
{
    Console.Error.WriteLine("usage: ThreadIterators.SideBySide WORKLOAD BASE_DIR OTHER_DIR [MORE_DIRS...] [--workers N] [--rounds N] [--warmup-ms N]");
    Console.Error.WriteLine($"workloads: {string.Join(", ", SideCase.Names)}");
    return 2;
}

var workers = 1;
var rounds = 40;
var warmupMs = 3000;
var positional = new List<string>();
for (var i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--workers": workers = int.Parse(args[++i], System.Globalization.CultureInfo.InvariantCulture); break;
        case "--rounds": rounds = int.Parse(args[++i], System.Globalization.CultureInfo.InvariantCulture); break;
        case "--warmup-ms": warmupMs = int.Parse(args[++i], System.Globalization.CultureInfo.InvariantCulture); break;
        default: positional.Add(args[i]); break;
    }
}

var workload = positional[0];
var directories = positional.Skip(1).Select(Path.GetFullPath).ToArray();
var runs = new Func<double>[directories.Length];
var libraries = new string[directories.Length];
var schedulers = new IDisposable[directories.Length];
for (var i = 0; i < directories.Length; i++)
{
    var assembly = new SideContext(directories[i]).LoadFromAssemblyPath(Path.Combine(directories[i], "ThreadIterators.SideBySide.dll"));
    var side = assembly.GetType("ThreadIterators.SideBySide.SideCase")!;
    (runs[i], schedulers[i]) = ((Func<double>, IDisposable))side.GetMethod(nameof(SideCase.Prepare))!.Invoke(null, [workload, workers])!;
    libraries[i] = (string)side.GetProperty(nameof(SideCase.Library))!.GetValue(null)!;
}

var warm = Stopwatch.StartNew();
while (warm.ElapsedMilliseconds < warmupMs)
{
    foreach (var run in runs)
    {
        run();
    }
}

var times = directories.Select(_ => new List<double>()).ToArray();
for (var round = 0; round < rounds; round++)
{
    for (var k = 0; k < runs.Length; k++)
    {
        // Each build in each place in the order, and the order reversed every other round.
        var i = (round + k) % runs.Length;
        i = round % 2 == 1 ? runs.Length - 1 - i : i;
        GC.Collect();
        times[i].Add(runs[i]());
    }
}

Console.WriteLine($"{workload}, {workers} worker(s), {rounds} rounds, {Environment.ProcessorCount} cores, .NET {Environment.Version}");
for (var i = 0; i < directories.Length; i++)
{
    var ratios = times[i].Select((t, round) => t / times[0][round]);
    Console.WriteLine($"  {directories[i]} (library {libraries[i]}): median {Median(times[i]):F2} ns/op, fastest {times[i].Min():F2}, median ratio to the first {Median(ratios):F3}");
}

foreach (var scheduler in schedulers)
{
    scheduler.Dispose();
}

return 0;

static double Median(IEnumerable<double> values)
{
    var sorted = values.Order().ToArray();
    return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
}
