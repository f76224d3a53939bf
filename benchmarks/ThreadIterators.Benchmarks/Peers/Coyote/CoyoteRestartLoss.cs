using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using Microsoft.Coyote.Actors;
using ThreadIterators.Supervision;
using CoyoteEvent = Microsoft.Coyote.Actors.Event;

namespace ThreadIterators.Benchmarks.Peers.Coyote;

/// <summary>
/// samples/Testing's supervisor restart that loses a message as Coyote actors. Coyote has no supervision and an
/// actor's inbox dies with it, so the program builds what the green-thread sample gets from the library: a jobs actor
/// whose queue outlives the worker (the counterpart of a mailbox that outlives its receiver), a worker that takes one
/// job at a time and reports its crash from <c>OnException</c>, and a supervisor that starts a new worker after a
/// crash. The worker needs its configuration, which a loader sets after a step of its own. Buggy: a job taken before
/// the configuration crashes the worker, and the restart does not bring that job back. Fixed: the supervisor starts
/// the worker once the loader reports the configuration loaded.
/// </summary>
internal static class CoyoteRestartLoss
{
    private const int Jobs = 3;

    private const int Stop = -1;

    internal sealed class Test : Actor
    {
        protected override async Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            var isFixed = ((Setup)initialEvent).IsFixed;
            var state = new SharedState();
            var jobs = this.CreateActor(typeof(JobQueue));
            var supervisor = this.CreateActor(typeof(Supervisor), new Start(jobs, this.Id, null, state, isFixed));
            this.CreateActor(typeof(Loader), new Start(jobs, this.Id, isFixed ? supervisor : null, state, isFixed));
            for (var job = 1; job <= Jobs; job++)
            {
                this.SendEvent(jobs, new Put(job));
            }

            this.SendEvent(jobs, new Put(Stop));
            for (var i = 0; i < 2; i++)
            {
                await this.ReceiveEventAsync(typeof(Done));
            }

            this.Assert(state.Processed == Jobs, $"{state.Processed} of {Jobs} jobs processed: a restart lost the rest");
        }
    }

    [OnEventDoAction(typeof(Put), nameof(OnPut))]
    [OnEventDoAction(typeof(Take), nameof(OnTake))]
    internal sealed class JobQueue : Actor
    {
        private readonly Queue<int> queued = new();

        private ActorId? taker;

        private void OnPut(CoyoteEvent e)
        {
            this.queued.Enqueue(((Put)e).Job);
            this.Hand();
        }

        private void OnTake(CoyoteEvent e)
        {
            this.taker = ((Take)e).Worker;
            this.Hand();
        }

        private void Hand()
        {
            if (this.taker is { } worker && this.queued.TryDequeue(out var job))
            {
                this.taker = null;
                this.SendEvent(worker, new Job(job));
            }
        }
    }

    internal sealed class Supervisor : Actor
    {
        protected override async Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            var start = (Start)initialEvent;
            if (start.IsFixed)
            {
                await this.ReceiveEventAsync(typeof(Configured));
            }

            for (var restarts = 0; restarts <= 3; restarts++)
            {
                this.CreateActor(typeof(Worker), new Start(start.Jobs, this.Id, null, start.State, start.IsFixed));
                if (await this.ReceiveEventAsync(typeof(Crashed), typeof(Done)) is Done)
                {
                    break;
                }
            }

            this.SendEvent(start.ReportTo, new Done());
        }
    }

    internal sealed class Worker : Actor
    {
        private ActorId supervisor = null!;

        protected override async Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            var start = (Start)initialEvent;
            this.supervisor = start.ReportTo;
            while (true)
            {
                this.SendEvent(start.Jobs, new Take(this.Id));
                var job = ((Job)await this.ReceiveEventAsync(typeof(Job))).Number;
                if (job == Stop)
                {
                    this.SendEvent(this.supervisor, new Done());
                    return;
                }

                if (!start.State.Configured)
                {
                    throw new InvalidOperationException($"job {job} arrived before the configuration");
                }

                start.State.Processed++;
            }
        }

        protected override OnExceptionOutcome OnException(Exception ex, string methodName, CoyoteEvent e)
        {
            // The crash a supervisor sees: tell it, and halt (the job this worker had taken goes with it).
            this.SendEvent(this.supervisor, new Crashed());
            return OnExceptionOutcome.Halt;
        }
    }

    [OnEventDoAction(typeof(Loaded), nameof(OnLoaded))]
    internal sealed class Loader : Actor
    {
        private Start start = null!;

        protected override Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            this.start = (Start)initialEvent;
            this.SendEvent(this.Id, new Loaded());
            return Task.CompletedTask;
        }

        private void OnLoaded()
        {
            this.start.State.Configured = true;
            if (this.start.Notify is { } supervisor)
            {
                this.SendEvent(supervisor, new Configured());
            }

            this.SendEvent(this.start.ReportTo, new Done());
        }
    }

    /// <summary>What the green-thread sample's closures share: the configuration flag and the count of jobs done.</summary>
    internal sealed class SharedState
    {
        public bool Configured { get; set; }

        public int Processed { get; set; }
    }

    internal sealed class Start(ActorId jobs, ActorId reportTo, ActorId? notify, SharedState state, bool isFixed) : CoyoteEvent
    {
        public ActorId Jobs { get; } = jobs;

        public ActorId ReportTo { get; } = reportTo;

        public ActorId? Notify { get; } = notify;

        public SharedState State { get; } = state;

        public bool IsFixed { get; } = isFixed;
    }

    internal sealed class Put(int job) : CoyoteEvent
    {
        public int Job { get; } = job;
    }

    internal sealed class Take(ActorId worker) : CoyoteEvent
    {
        public ActorId Worker { get; } = worker;
    }

    internal sealed class Job(int number) : CoyoteEvent
    {
        public int Number { get; } = number;
    }

    internal sealed class Crashed : CoyoteEvent
    {
    }

    internal sealed class Configured : CoyoteEvent
    {
    }

    internal sealed class Loaded : CoyoteEvent
    {
    }
}
