using System;
using System.Collections.Generic;
using ThreadIterators;

namespace ThreadIterators.Samples.Testing;

/// <summary>
/// A test of a 30-second timeout: an ask to a server that never replies. Under exploration the deadline fires as
/// soon as nothing else can run, so the test takes no real time.
/// </summary>
public static class VirtualTimeout
{
    private sealed record Question(ReplyTo<int> Reply);

    /// <summary>The test: passes when the ask times out after its 30 virtual seconds.</summary>
    public static IEnumerable<Event> Test(Scheduler scheduler)
    {
        var silent = new Mailbox<Question>("silent server");
        var server = scheduler.Spawn(Hold(silent), "silent server");
        var started = scheduler.TimeProvider.GetUtcNow();
        var ask = silent.Ask((ReplyTo<int> reply) => new Question(reply), TimeSpan.FromSeconds(30));
        yield return ask;
        ClassicBugs.Expect(ask.Exception is TimeoutException, "the ask did not time out");
        ClassicBugs.Expect(scheduler.TimeProvider.GetUtcNow() - started >= TimeSpan.FromSeconds(30), "the ask timed out early");
        server.Stop();
        yield return server.Ended;
    }

    private static IEnumerable<Event> Hold(Mailbox<Question> inbox)
    {
        yield return inbox.Recv();
        yield return Event.Sleep(Event.MaxSleep);
    }
}
