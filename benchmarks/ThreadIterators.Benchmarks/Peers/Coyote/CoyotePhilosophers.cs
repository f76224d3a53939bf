using System.Threading.Tasks;
using Microsoft.Coyote.Actors;
using CoyoteEvent = Microsoft.Coyote.Actors.Event;

namespace ThreadIterators.Benchmarks.Peers.Coyote;

/// <summary>
/// samples/Testing's dining philosophers as Coyote actors: three in a ring, each the keeper of its left fork, which it
/// hands to its left neighbour on request. Each takes its seat, thinks (a step of its own), asks its right neighbour
/// for their fork and waits for it; a request that arrives while it is not waiting is answered at once. Buggy: if all
/// three ask before their own request is answered, each waits on another: a deadlock. Fixed: the last philosopher
/// answers its request before it asks.
/// </summary>
internal static class CoyotePhilosophers
{
    private const int Count = 3;

    internal sealed class Test : Actor
    {
        protected override async Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            var asymmetric = ((Setup)initialEvent).IsFixed;
            var philosophers = new ActorId[Count];
            for (var i = 0; i < Count; i++)
            {
                philosophers[i] = this.CreateActor(typeof(Philosopher));
            }

            for (var i = 0; i < Count; i++)
            {
                this.SendEvent(philosophers[i], new Seat(philosophers[(i + 1) % Count], this.Id, asymmetric && i == Count - 1));
            }

            for (var i = 0; i < Count; i++)
            {
                await this.ReceiveEventAsync(typeof(Done));
            }
        }
    }

    [OnEventDoAction(typeof(Seat), nameof(OnSeat))]
    [OnEventDoAction(typeof(Think), nameof(OnThinkAsync))]
    [OnEventDoAction(typeof(ForkRequest), nameof(OnForkRequest))]
    internal sealed class Philosopher : Actor
    {
        private Seat seat = null!;

        private bool served;

        private void OnSeat(CoyoteEvent e)
        {
            this.seat = (Seat)e;
            this.SendEvent(this.Id, new Think());
        }

        private async Task OnThinkAsync()
        {
            if (this.seat.AnswersFirst && !this.served)
            {
                this.Answer((ForkRequest)await this.ReceiveEventAsync(typeof(ForkRequest)));
            }

            this.SendEvent(this.seat.Right, new ForkRequest(this.Id));
            await this.ReceiveEventAsync(typeof(Fork));
            this.SendEvent(this.seat.Test, new Done());
        }

        private void OnForkRequest(CoyoteEvent e) => this.Answer((ForkRequest)e);

        private void Answer(ForkRequest request)
        {
            this.served = true;
            this.SendEvent(request.Left, new Fork());
        }
    }

    internal sealed class Seat(ActorId right, ActorId test, bool answersFirst) : CoyoteEvent
    {
        public ActorId Right { get; } = right;

        public ActorId Test { get; } = test;

        public bool AnswersFirst { get; } = answersFirst;
    }

    internal sealed class Think : CoyoteEvent
    {
    }

    internal sealed class ForkRequest(ActorId left) : CoyoteEvent
    {
        public ActorId Left { get; } = left;
    }

    internal sealed class Fork : CoyoteEvent
    {
    }
}
