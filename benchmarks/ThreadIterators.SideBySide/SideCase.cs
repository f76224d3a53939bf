using System;
using System.Diagnostics;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.SideBySide;

/// <summary>
/// One workload on one scheduler of this copy's library, prepared once and then timed run by run. Public, and called
/// by name, because the driver reaches each copy of this assembly through its own load context.
/// </summary>
public static class SideCase
{
    /// <summary>The workloads, as named on the command line.</summary>
    public static readonly string[] Names = ["receive", "choice", "timeout", "completedtask", "receivewaiting", "pendingtask", "threadring", "ring", "skynet"];

    /// <summary>Gets the version and file of the library this copy runs, to show each build is the one meant.</summary>
    public static string Library => $"{typeof(Scheduler).Assembly.GetName().Version} at {typeof(Scheduler).Assembly.Location}";

    /// <summary>
    /// Makes a scheduler of <paramref name="workers"/> work-stealing workers and returns one timed run of workload
    /// <paramref name="name"/> (nanoseconds per operation, after the result is checked), and the scheduler to dispose.
    /// </summary>
    public static (Func<double> Run, IDisposable Scheduler) Prepare(string name, int workers)
    {
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = workers, Policy = SchedulingPolicy.WorkStealing });
        Mailbox<int>? prefilled = null;
        Action? setup = null;
        long operations;
        long expected;
        Func<long> run;
        switch (name)
        {
            case "receive":
                operations = 1_000_000;
                expected = PingPong.Expected(operations);
                run = () => PingPong.GreenThreads(scheduler, operations);
                break;
            case "choice":
                operations = 1_000_000;
                expected = PingPong.Expected(operations);
                run = () => PingPong.Choosing(scheduler, operations);
                break;
            case "timeout":
                operations = 1_000_000;
                expected = PingPong.Expected(operations);
                run = () => PingPong.TimingOut(scheduler, operations);
                break;
            case "completedtask":
                operations = 2_000_000;
                expected = TaskWait.Expected(operations);
                run = () => TaskWait.CompletedTask(scheduler, operations);
                break;
            case "receivewaiting":
                operations = 2_000_000;
                expected = TaskWait.Expected(operations);
                setup = () => prefilled = TaskWait.Prefilled(operations);
                run = () => TaskWait.ReceiveWaiting(scheduler, prefilled!, operations);
                break;
            case "pendingtask":
                operations = 20_000;
                expected = TaskWait.Expected(operations);
                run = () => TaskWait.PendingTask(scheduler, operations);
                break;

            // The three workloads of the redesign's no-regression check, at the quick runner's sizes.
            case "threadring":
                operations = 10_000_000;
                expected = ThreadRing.Expected(operations);
                run = () => ThreadRing.GreenThreads(scheduler, operations);
                break;
            case "ring":
                operations = 10_000L * 1_000;
                expected = Ring.Expected(1_000);
                run = () => Ring.GreenThreads(scheduler, 10_000, 1_000);
                break;
            case "skynet":
                operations = 1_000_000;
                expected = Skynet.Expected(operations);
                run = () => Skynet.GreenThreads(scheduler, operations);
                break;
            default:
                scheduler.Dispose();
                throw new ArgumentException($"Unknown workload '{name}'; one of: {string.Join(", ", Names)}.", nameof(name));
        }

        return (() =>
        {
            setup?.Invoke();
            var start = Stopwatch.GetTimestamp();
            var result = run();
            var elapsed = Stopwatch.GetElapsedTime(start);
            if (result != expected)
            {
                throw new InvalidOperationException($"{name} computed {result}, expected {expected}.");
            }

            return elapsed.TotalNanoseconds / operations;
        }, scheduler);
    }
}
