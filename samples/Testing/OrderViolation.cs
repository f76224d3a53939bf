using System.Collections.Generic;
using ThreadIterators;

namespace ThreadIterators.Samples.Testing;

/// <summary>
/// One thread configures a service, another starts using it; the service must be configured first. Buggy: the two
/// send to the service independently, so the use can arrive first. Fixed: the user waits for the configurer to end
/// (a join) before it sends.
/// </summary>
public static class OrderViolation
{
    /// <summary>The buggy test.</summary>
    public static IEnumerable<Event> Buggy(Scheduler scheduler) => Run(scheduler, join: false);

    /// <summary>The fixed test.</summary>
    public static IEnumerable<Event> Fixed(Scheduler scheduler) => Run(scheduler, join: true);

    private static IEnumerable<Event> Run(Scheduler scheduler, bool join)
    {
        var service = new Mailbox<string>("service");
        var handled = 0;
        var server = scheduler.Spawn(Serve(), "service");
        var configurer = scheduler.Spawn(Configure(), "configurer");
        var user = scheduler.Spawn(Use(), "user");
        yield return configurer.Exited;
        yield return user.Exited;
        service.Complete();
        yield return server.Exited;
        ClassicBugs.Expect(handled == 3, $"{handled} of 3 requests handled");

        IEnumerable<Event> Serve()
        {
            var configured = false;
            var request = service.Recv();
            while (true)
            {
                yield return request;
                if (request.IsCompleted)
                {
                    yield break;
                }

                if (request.Value == "configure")
                {
                    configured = true;
                }
                else
                {
                    ClassicBugs.Expect(configured, $"order violation: '{request.Value}' arrived before 'configure'");
                }

                handled++;
            }
        }

        IEnumerable<Event> Configure()
        {
            // Loads its settings first (a step of its own), then configures.
            yield return Event.Yield;
            service.Send("configure");
        }

        IEnumerable<Event> Use()
        {
            if (join)
            {
                yield return configurer.Exited;
            }

            service.Send("read");
            yield return Event.Yield;
            service.Send("write");
        }
    }
}
