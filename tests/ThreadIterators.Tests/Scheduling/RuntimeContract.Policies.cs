using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void Scheduler_Policy_IsTheOneItsOptionsAskedFor()
    {
        Assert.Equal(Policy, Scheduler.Policy);
        Assert.Equal(WorkerCount, Scheduler.WorkerCount);
    }

    /// <summary>
    /// Actors woken from green threads on every worker and from plain OS threads, with yields between: every message
    /// arrives, and each thread runs only where the policy lets it. Dedicated: one worker per thread, the one fixed
    /// at spawn (round robin by id). Soft affinity: a thread's home, once it has one, is always the worker it last ran on.
    /// </summary>
    [Fact]
    public void Actors_WokenFromEverywhere_GetEveryMessage_AndRunWhereThePolicySays()
    {
        const int actors = 12;
        const int perSender = 300;
        const int greenSenders = 4;
        const int osSenders = 2;
        var inboxes = Enumerable.Range(0, actors).Select(i => new Mailbox<int>($"actor {i}")).ToArray();
        var seen = inboxes.Select(_ => new HashSet<int>()).ToArray();
        var homeMismatches = 0;
        var received = new int[actors];
        var expected = (greenSenders + osSenders) * perSender;

        GreenThread[] threads = [];
        threads = Enumerable.Range(0, actors).Select(i => Scheduler.Spawn(Actor(i), $"actor {i}")).ToArray();

        // The actors learn their own handles from the array, so they wait for this first message before recording.
        foreach (var inbox in inboxes)
        {
            inbox.Send(-1);
        }

        var senders = Enumerable.Range(0, greenSenders).Select(s => Scheduler.Spawn(GreenSender(s))).ToList();
        var osThreads = Enumerable.Range(0, osSenders).Select(s => new Thread(() => Send(s)) { IsBackground = true }).ToList();
        osThreads.ForEach(t => t.Start());
        foreach (var thread in threads.Concat(senders))
        {
            Join(thread);
        }

        osThreads.ForEach(t => Assert.True(t.Join(Timeout), "an OS sender did not finish"));
        Assert.All(received, count => Assert.Equal(expected, count));
        if (Policy == SchedulingPolicy.Dedicated)
        {
            for (var i = 0; i < actors; i++)
            {
                Assert.Equal([(int)(threads[i].Id % WorkerCount)], seen[i]);
            }
        }

        if (Policy == SchedulingPolicy.SoftAffinity)
        {
            Assert.Equal(0, homeMismatches);
        }

        IEnumerable<Event> Actor(int index)
        {
            var inbox = inboxes[index];
            var start = inbox.Recv();
            yield return start;
            Assert.Equal(-1, start.Value);
            for (var i = 0; i < expected; i++)
            {
                var message = inbox.Recv();
                yield return message;
                Record();
                received[index]++;
                if (i % 7 == 0)
                {
                    yield return Event.Yield;
                    Record();
                }
            }

            void Record()
            {
                var worker = OsThreadContext.Current.Worker!.Index;
                seen[index].Add(worker);
                // Started from outside, a thread is homeless until a worker wakes it (see SoftAffinityPolicy).
                if (threads[index].Home != worker && threads[index].Home != GreenThread.Homeless)
                {
                    Interlocked.Increment(ref homeMismatches);
                }
            }
        }

        IEnumerable<Event> GreenSender(int seed)
        {
            for (var i = 0; i < perSender; i++)
            {
                foreach (var inbox in inboxes)
                {
                    inbox.Send(seed);
                }

                if (i % 16 == 0)
                {
                    yield return Event.Yield;
                }
            }
        }

        void Send(int seed)
        {
            for (var i = 0; i < perSender; i++)
            {
                foreach (var inbox in inboxes)
                {
                    inbox.Send(seed);
                }
            }
        }
    }

    [Fact]
    public void Scheduler_InvalidOptions_ThrowNamingTheOption()
    {
        var policy = Assert.Throws<ArgumentOutOfRangeException>(() => new Scheduler(new SchedulerOptions { Policy = (SchedulingPolicy)42 }));
        Assert.Contains("options.Policy", policy.Message, StringComparison.Ordinal);
        var workers = Assert.Throws<ArgumentOutOfRangeException>(() => new Scheduler(new SchedulerOptions { WorkerCount = 0 }));
        Assert.Equal("options.WorkerCount", workers.ParamName);
        Assert.Throws<ArgumentNullException>(() => new Scheduler(null!));
    }
}
