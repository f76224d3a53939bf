using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using Microsoft.Coyote.Actors;
using Microsoft.Coyote.Actors.Timers;
using CoyoteEvent = Microsoft.Coyote.Actors.Event;

namespace ThreadIterators.Benchmarks.Peers.Coyote;

/// <summary>
/// samples/Testing's timeout racing a late reply as Coyote actors: a client asks a server to apply a payment, starts
/// a one-second timer, and retries once if the timer fires first. Buggy: a reply that is only late means the payment
/// is applied twice. Fixed: the server applies a payment id once and replies to the retry as well. Each attempt
/// waits for its own reply, as an ask does; a late reply or a stale timer is dropped.
/// </summary>
internal static class CoyoteTimeoutRetry
{
    internal sealed class Test : Actor
    {
        protected override async Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            var idempotent = ((Setup)initialEvent).IsFixed;
            var server = this.CreateActor(typeof(Server), new Setup(idempotent));
            this.CreateActor(typeof(Client), new Start(server, this.Id));
            await this.ReceiveEventAsync(typeof(Done));
            this.SendEvent(server, new CountRequest(this.Id));
            var applied = ((Applied)await this.ReceiveEventAsync(typeof(Applied))).Count;
            this.Assert(applied == 1, $"one payment applied {applied} times");
        }
    }

    [OnEventDoAction(typeof(Pay), nameof(OnPay))]
    [OnEventDoAction(typeof(CountRequest), nameof(OnCount))]
    internal sealed class Server : Actor
    {
        private readonly HashSet<int> seen = [];

        private bool idempotent;

        private int applied;

        protected override Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            this.idempotent = ((Setup)initialEvent).IsFixed;
            return Task.CompletedTask;
        }

        private void OnPay(CoyoteEvent e)
        {
            var pay = (Pay)e;
            if (!this.idempotent || this.seen.Add(pay.Id))
            {
                this.applied++;
            }

            this.SendEvent(pay.Client, new Paid(pay.Attempt, this.applied));
        }

        private void OnCount(CoyoteEvent e) => this.SendEvent(((CountRequest)e).Test, new Applied(this.applied));
    }

    [OnEventDoAction(typeof(Paid), nameof(Drop))]
    [OnEventDoAction(typeof(TimerElapsedEvent), nameof(Drop))]
    internal sealed class Client : Actor
    {
        protected override async Task OnInitializeAsync(CoyoteEvent initialEvent)
        {
            var start = (Start)initialEvent;
            for (var attempt = 0; attempt < 2; attempt++)
            {
                this.SendEvent(start.Server, new Pay(42, attempt, this.Id));
                var timer = this.StartTimer(TimeSpan.FromSeconds(1));
                var thisAttempt = attempt;
                var outcome = await this.ReceiveEventAsync(
                    Tuple.Create<Type, Func<CoyoteEvent, bool>>(typeof(Paid), e => ((Paid)e).Attempt == thisAttempt),
                    Tuple.Create<Type, Func<CoyoteEvent, bool>>(typeof(TimerElapsedEvent), e => ((TimerElapsedEvent)e).Info == timer));
                if (outcome is Paid)
                {
                    this.StopTimer(timer);
                    break;
                }
            }

            this.SendEvent(start.Test, new Done());
        }

        private void Drop()
        {
        }
    }

    internal sealed class Start(ActorId server, ActorId test) : CoyoteEvent
    {
        public ActorId Server { get; } = server;

        public ActorId Test { get; } = test;
    }

    internal sealed class Pay(int id, int attempt, ActorId client) : CoyoteEvent
    {
        public int Id { get; } = id;

        public int Attempt { get; } = attempt;

        public ActorId Client { get; } = client;
    }

    internal sealed class Paid(int attempt, int applied) : CoyoteEvent
    {
        public int Attempt { get; } = attempt;

        public int Applied { get; } = applied;
    }

    internal sealed class CountRequest(ActorId test) : CoyoteEvent
    {
        public ActorId Test { get; } = test;
    }

    internal sealed class Applied(int count) : CoyoteEvent
    {
        public int Count { get; } = count;
    }
}
