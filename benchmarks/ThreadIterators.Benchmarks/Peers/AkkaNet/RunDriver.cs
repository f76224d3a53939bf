using System;
using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// The root of one run: a top-level actor whose children are the workload's actors. Creating them as its children
/// lets the run end with one stop, which Akka.NET carries down the tree and completes bottom-up, so the driver's
/// <see cref="PostStop"/> proves every actor of the run has stopped. It adds one actor and one message per report to
/// each workload, nothing per hop.
/// </summary>
internal sealed class RunDriver : UntypedActor
{
    private readonly RunOutcome _outcome;

    private readonly Action<IUntypedActorContext> _setup;

    private readonly int _reports;

    private int _received;

    private long _sum;

    /// <summary>Initializes a new instance of the <see cref="RunDriver"/> class. Public, since Akka.NET creates actors through <see cref="Activator"/>.</summary>
    /// <param name="outcome">Where the answer goes.</param>
    /// <param name="setup">Creates the workload's actors as this actor's children and sends the first messages; run in <see cref="PreStart"/>.</param>
    /// <param name="reports">The <see cref="Result"/> messages to add up before the run is over: one, or one per actor in the cache-affinity run.</param>
    public RunDriver(RunOutcome outcome, Action<IUntypedActorContext> setup, int reports)
    {
        _outcome = outcome;
        _setup = setup;
        _reports = reports;
    }

    /// <summary>The props of a driver, in the factory-method form Akka.NET's documentation shows.</summary>
    public static Props Props(RunOutcome outcome, Action<IUntypedActorContext> setup, int reports) =>
        Akka.Actor.Props.Create(() => new RunDriver(outcome, setup, reports));

    protected override void PreStart()
    {
        try
        {
            _setup(Context);
        }
        catch (Exception exception)
        {
            // An actor that fails to start is stopped by its supervisor; say why to the waiting thread first.
            _outcome.Fail(exception);
            throw;
        }
    }

    protected override void OnReceive(object message)
    {
        if (message is not Result result)
        {
            Unhandled(message);
            return;
        }

        _sum += result.Value;
        if (++_received == _reports)
        {
            _outcome.Complete(_sum);
        }
    }

    /// <summary>
    /// A child's exception ends the run at once: the default strategy would restart the child, losing its state, and
    /// the run would wait out its timeout instead. Asked for only when a child fails, so it costs nothing per message.
    /// </summary>
    protected override SupervisorStrategy SupervisorStrategy() => new OneForOneStrategy(exception =>
    {
        _outcome.Fail(exception);
        return Directive.Stop;
    });

    protected override void PostStop() => _outcome.MarkStopped();
}
