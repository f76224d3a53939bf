using System.Threading.Tasks;
using Microsoft.Coyote.Actors;
using CoyoteEvent = Microsoft.Coyote.Actors.Event;

namespace ThreadIterators.Benchmarks.Peers.Coyote;

/// <summary>
/// samples/Testing's order violation as Coyote actors: a configurer configures a service after a loading step of its
/// own, and a user reads and writes; the service must be configured first. Buggy: the two send independently. Fixed:
/// the user waits for the configurer's word (the counterpart of joining it) before it sends.
/// </summary>
internal static class CoyoteOrderViolation
{
    internal sealed class Test : Actor
    {
        protected override async Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            var join = ((Setup)initialEvent).IsFixed;
            var service = this.CreateActor(typeof(Service));
            var user = this.CreateActor(typeof(User), new Start(service, this.Id, null, join));
            this.CreateActor(typeof(Configurer), new Start(service, this.Id, join ? user : null, join));
            for (var i = 0; i < 2; i++)
            {
                await this.ReceiveEventAsync(typeof(Done));
            }

            this.SendEvent(service, new CountRequest(this.Id));
            var handled = ((Count)await this.ReceiveEventAsync(typeof(Count))).Handled;
            this.Assert(handled == 3, $"{handled} of 3 requests handled");
        }
    }

    [OnEventDoAction(typeof(Request), nameof(OnRequest))]
    [OnEventDoAction(typeof(CountRequest), nameof(OnCount))]
    internal sealed class Service : Actor
    {
        private bool configured;

        private int handled;

        private void OnRequest(CoyoteEvent e)
        {
            var request = ((Request)e).Text;
            if (request == "configure")
            {
                this.configured = true;
            }
            else
            {
                this.Assert(this.configured, $"order violation: '{request}' arrived before 'configure'");
            }

            this.handled++;
        }

        private void OnCount(CoyoteEvent e) => this.SendEvent(((CountRequest)e).Test, new Count(this.handled));
    }

    [OnEventDoAction(typeof(Loaded), nameof(OnLoaded))]
    internal sealed class Configurer : Actor
    {
        private Start start = null!;

        protected override Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            // Loads its settings first (a step of its own), then configures.
            this.start = (Start)initialEvent;
            this.SendEvent(this.Id, new Loaded());
            return Task.CompletedTask;
        }

        private void OnLoaded()
        {
            this.SendEvent(this.start.Service, new Request("configure"));
            if (this.start.Notify is { } user)
            {
                this.SendEvent(user, new Configured());
            }

            this.SendEvent(this.start.Test, new Done());
        }
    }

    internal sealed class User : Actor
    {
        protected override async Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            var start = (Start)initialEvent;
            if (start.Join)
            {
                await this.ReceiveEventAsync(typeof(Configured));
            }

            this.SendEvent(start.Service, new Request("read"));
            this.SendEvent(start.Service, new Request("write"));
            this.SendEvent(start.Test, new Done());
        }
    }

    internal sealed class Start(ActorId service, ActorId test, ActorId? notify, bool join) : CoyoteEvent
    {
        public ActorId Service { get; } = service;

        public ActorId Test { get; } = test;

        public ActorId? Notify { get; } = notify;

        public bool Join { get; } = join;
    }

    internal sealed class Request(string text) : CoyoteEvent
    {
        public string Text { get; } = text;
    }

    internal sealed class CountRequest(ActorId test) : CoyoteEvent
    {
        public ActorId Test { get; } = test;
    }

    internal sealed class Count(int handled) : CoyoteEvent
    {
        public int Handled { get; } = handled;
    }

    internal sealed class Loaded : CoyoteEvent
    {
    }

    internal sealed class Configured : CoyoteEvent
    {
    }
}
