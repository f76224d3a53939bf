using System.Threading.Tasks;
using Microsoft.Coyote.Actors;
using CoyoteEvent = Microsoft.Coyote.Actors.Event;

namespace ThreadIterators.Benchmarks.Peers.Coyote;

/// <summary>
/// samples/Testing's lost update as Coyote actors: two clients each add one to a counter actor. Buggy: each asks for
/// the value and then sets it plus one, so two reads before either write lose an update. Fixed: the counter
/// increments. The types nest so that the program reads as one unit, as the green-thread sample does.
/// </summary>
internal static class CoyoteLostUpdate
{
    internal sealed class Test : Actor
    {
        protected override async Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            var increments = ((Setup)initialEvent).IsFixed;
            var counter = this.CreateActor(typeof(Counter));
            for (var i = 0; i < 2; i++)
            {
                this.CreateActor(typeof(Client), new Start(counter, this.Id, increments));
            }

            for (var i = 0; i < 2; i++)
            {
                await this.ReceiveEventAsync(typeof(Done));
            }

            this.SendEvent(counter, new Get(this.Id));
            var value = ((Value)await this.ReceiveEventAsync(typeof(Value))).Number;
            this.Assert(value == 2, $"lost update: two increments left the counter at {value}");
        }
    }

    [OnEventDoAction(typeof(Get), nameof(OnGet))]
    [OnEventDoAction(typeof(Set), nameof(OnSet))]
    [OnEventDoAction(typeof(Increment), nameof(OnIncrement))]
    internal sealed class Counter : Actor
    {
        private int value;

        private void OnGet(CoyoteEvent e) => this.SendEvent(((Get)e).Client, new Value(this.value));

        private void OnSet(CoyoteEvent e)
        {
            var set = (Set)e;
            this.value = set.Number;
            this.SendEvent(set.Client, new Value(this.value));
        }

        private void OnIncrement(CoyoteEvent e) => this.SendEvent(((Increment)e).Client, new Value(++this.value));
    }

    internal sealed class Client : Actor
    {
        protected override async Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            var start = (Start)initialEvent;
            if (start.Increments)
            {
                this.SendEvent(start.Counter, new Increment(this.Id));
                await this.ReceiveEventAsync(typeof(Value));
            }
            else
            {
                this.SendEvent(start.Counter, new Get(this.Id));
                var read = ((Value)await this.ReceiveEventAsync(typeof(Value))).Number;
                this.SendEvent(start.Counter, new Set(this.Id, read + 1));
                await this.ReceiveEventAsync(typeof(Value));
            }

            this.SendEvent(start.Test, new Done());
        }
    }

    internal sealed class Start(ActorId counter, ActorId test, bool increments) : CoyoteEvent
    {
        public ActorId Counter { get; } = counter;

        public ActorId Test { get; } = test;

        public bool Increments { get; } = increments;
    }

    internal sealed class Get(ActorId client) : CoyoteEvent
    {
        public ActorId Client { get; } = client;
    }

    internal sealed class Set(ActorId client, int number) : CoyoteEvent
    {
        public ActorId Client { get; } = client;

        public int Number { get; } = number;
    }

    internal sealed class Increment(ActorId client) : CoyoteEvent
    {
        public ActorId Client { get; } = client;
    }

    internal sealed class Value(int number) : CoyoteEvent
    {
        public int Number { get; } = number;
    }
}
