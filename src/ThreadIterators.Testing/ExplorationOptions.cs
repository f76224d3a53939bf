using System;

namespace ThreadIterators.Testing;

/// <summary>How <see cref="Exploration.Explore"/> runs a test: how many runs, which strategy, and the bounds of each run.</summary>
public sealed class ExplorationOptions
{
    /// <summary>Gets the number of runs, each with its own seed; the exploration stops at the first that fails. 1,000 unless set.</summary>
    public int Iterations { get; init; } = 1_000;

    /// <summary>Gets the seed of the first run; run i uses <c>FirstSeed + i</c>. 0 unless set.</summary>
    public int FirstSeed { get; init; }

    /// <summary>Gets the strategy that makes each scheduling decision. <see cref="ExplorationStrategy.Random"/> unless set.</summary>
    public ExplorationStrategy Strategy { get; init; } = ExplorationStrategy.Random;

    /// <summary>Gets PCT's depth d: the number of ordering constraints a bug may need; d - 1 priority change points per run. 3 unless set.</summary>
    public int PctDepth { get; init; } = 3;

    /// <summary>Gets the most steps (turns of a thread, and timer firings) a run may take before it fails as a livelock. 100,000 unless set.</summary>
    public int MaxSteps { get; init; } = 100_000;

    /// <summary>
    /// Gets how long a run waits, in real time, when its only waits are on work outside the scheduler (a task, a
    /// token, a channel), before it fails. 10 seconds unless set.
    /// </summary>
    public TimeSpan OutsideWaitTimeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Gets what a run does with work outside the scheduler (a task, a token, a channel completed by other OS threads):
    /// fail (<see cref="OutsideWork.Undeclared"/>, unless set), or take its completions in an order the seed decides,
    /// when nothing else can move (<see cref="OutsideWork.WhenIdle"/>) or at any step (<see cref="OutsideWork.Anytime"/>).
    /// </summary>
    public OutsideWork OutsideWork { get; init; }

    /// <summary>Gets how many of the last steps a failure's trace keeps. 50 unless set.</summary>
    public int TraceLength { get; init; } = 50;

    /// <summary>Throws if an option is out of range, naming it.</summary>
    internal void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(Iterations, 1, "options.Iterations");
        ArgumentOutOfRangeException.ThrowIfLessThan(PctDepth, 1, "options.PctDepth");
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxSteps, 1, "options.MaxSteps");
        ArgumentOutOfRangeException.ThrowIfLessThan(TraceLength, 1, "options.TraceLength");
        ArgumentOutOfRangeException.ThrowIfLessThan(OutsideWaitTimeout, TimeSpan.Zero, "options.OutsideWaitTimeout");
        if (!Enum.IsDefined(OutsideWork))
        {
            throw new ArgumentOutOfRangeException("options.OutsideWork", OutsideWork, $"options.OutsideWork is {OutsideWork}, which is not an {nameof(Testing.OutsideWork)} value.");
        }

        if (!Enum.IsDefined(Strategy))
        {
            throw new ArgumentOutOfRangeException("options.Strategy", Strategy, $"options.Strategy is {Strategy}, which is not an {nameof(ExplorationStrategy)} value.");
        }
    }
}
