using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace WordCount;

/// <summary>
/// The job: one producer parses a MediaWiki dump and hands its pages to a pool of consumers, which count words; the
/// consumers' counts are merged at the end. Each <see cref="Variant"/> feeds the pool its own way.
/// </summary>
public static class WordCountJob
{
    /// <summary>Pages a bounded mailbox holds, and pages unacknowledged under flow control: the study's 100.</summary>
    public const int Window = 100;

    /// <summary>Counts every page on the calling thread: the reference every variant's counts must equal.</summary>
    /// <param name="dump">The dump's path.</param>
    /// <param name="passes">How many times the dump is read; a larger job from the same text.</param>
    /// <returns>The counts.</returns>
    public static WordCounts SingleThreaded(string dump, int passes = 1)
    {
        var counts = new WordCounts();
        foreach (var page in Pages(dump, passes))
        {
            counts.Add(page);
        }

        return counts;
    }

    /// <summary>The dump's pages, parsed afresh <paramref name="passes"/> times over.</summary>
    /// <param name="dump">The dump's path.</param>
    /// <param name="passes">How many times to read it.</param>
    /// <returns>The pages, lazily.</returns>
    public static IEnumerable<Page> Pages(string dump, int passes)
    {
        for (var pass = 0; pass < passes; pass++)
        {
            foreach (var page in WikiDumpReader.Read(dump))
            {
                yield return page;
            }
        }
    }

    /// <summary>Runs one variant with <paramref name="consumers"/> consumers and returns the merged counts.</summary>
    /// <param name="variant">How pages reach the consumers.</param>
    /// <param name="dump">The dump's path.</param>
    /// <param name="consumers">Consumers; at least 1.</param>
    /// <param name="scheduler">The scheduler green-thread variants run on; ignored by the task baseline.</param>
    /// <param name="passes">How many times the producer reads the dump.</param>
    /// <returns>The merged counts.</returns>
    public static WordCounts Run(Variant variant, string dump, int consumers, Scheduler? scheduler, int passes = 1)
    {
        ArgumentNullException.ThrowIfNull(variant);
        ArgumentOutOfRangeException.ThrowIfLessThan(consumers, 1);
        if (variant.Approach == Approach.TasksChannel)
        {
            return TasksChannel(dump, consumers, passes);
        }

        ArgumentNullException.ThrowIfNull(scheduler);
        var counts = Enumerable.Range(0, consumers).Select(_ => new WordCounts()).ToArray();
        if (variant.Approach == Approach.Pull)
        {
            var source = new PullSource<Page>("pages");
            var pullers = counts.Select(_ => source.Connect(variant.BatchSize, variant.Prefetch)).ToArray();
            scheduler.Spawn(ProducePulled(source, dump, passes), "producer");
            for (var i = 0; i < consumers; i++)
            {
                scheduler.Spawn(ConsumePulled(pullers[i], counts[i]), $"consumer {i}");
            }
        }
        else
        {
            var bounded = variant.Approach == Approach.PushBounded;
            var credits = bounded ? null : new CreditWindow(Window, "pages");
            if (variant.Routing == Routing.Balancing)
            {
                var shared = bounded ? new SharedMailbox<Page?>(Window, "pages") : new SharedMailbox<Page?>("pages");
                scheduler.Spawn(ProducePushed(shared, [shared], consumers, credits, dump, passes), "producer");
                for (var i = 0; i < consumers; i++)
                {
                    var receive = shared.CreateReceiveEvent();
                    scheduler.Spawn(Consume(receive, () => receive.Value, counts[i], credits), $"consumer {i}");
                }
            }
            else
            {
                var mailboxes = counts.Select((_, i) => bounded ? new Mailbox<Page?>(Window, $"consumer {i}") : new Mailbox<Page?>($"consumer {i}")).ToArray();
                var router = new Router<Page?>(variant.Strategy, mailboxes, "pages");
                scheduler.Spawn(ProducePushed(router, mailboxes, 1, credits, dump, passes), "producer");
                for (var i = 0; i < consumers; i++)
                {
                    var receive = mailboxes[i].Recv();
                    scheduler.Spawn(Consume(receive, () => receive.Value, counts[i], credits), $"consumer {i}");
                }
            }
        }

        scheduler.WaitForAll();
        return WordCounts.MergeAll(counts);
    }

    /// <summary>
    /// Pushes every page into <paramref name="target"/>, bounded (parking while full) or under credits, then a null
    /// page to each consumer as its end: <paramref name="stopsEach"/> into each of <paramref name="ends"/>.
    /// </summary>
    private static IEnumerable<Event> ProducePushed(IMessageTarget<Page?> target, IReadOnlyList<IMessageTarget<Page?>> ends, int stopsEach, CreditWindow? credits, string dump, int passes)
    {
        foreach (var page in Pages(dump, passes))
        {
            if (credits is null)
            {
                yield return target.Put(page);
            }
            else
            {
                yield return credits.Acquire();
                target.Send(page);
            }
        }

        foreach (var end in ends)
        {
            for (var i = 0; i < stopsEach; i++)
            {
                yield return end.Put(null);
            }
        }
    }

    /// <summary>
    /// A pushed-to consumer: yields its receive event (its own mailbox's or the shared mailbox's) and counts each
    /// page that <paramref name="page"/> then gives, until a null page; under flow control it acknowledges each.
    /// </summary>
    private static IEnumerable<Event> Consume(Event receive, Func<Page?> page, WordCounts counts, CreditWindow? credits)
    {
        while (true)
        {
            yield return receive;
            if (page() is not { } received)
            {
                yield break;
            }

            counts.Add(received);
            credits?.Release();
        }
    }

    private static IEnumerable<Event> ProducePulled(PullSource<Page> source, string dump, int passes)
    {
        foreach (var page in Pages(dump, passes))
        {
            yield return source.Offer(page);
        }

        yield return source.Complete();
    }

    private static IEnumerable<Event> ConsumePulled(Puller<Page> puller, WordCounts counts)
    {
        while (true)
        {
            yield return puller.Next();
            if (puller.IsCompleted)
            {
                yield break;
            }

            foreach (var page in puller.Batch)
            {
                counts.Add(page);
            }
        }
    }

    /// <summary>The .NET baseline: a producer task and consumer tasks on one bounded channel of <see cref="Window"/> pages.</summary>
    private static WordCounts TasksChannel(string dump, int consumers, int passes)
    {
        var channel = Channel.CreateBounded<Page>(new BoundedChannelOptions(Window) { SingleWriter = true, FullMode = BoundedChannelFullMode.Wait });
        var workers = Enumerable.Range(0, consumers).Select(_ => Task.Run(async () =>
        {
            var counts = new WordCounts();
            await foreach (var page in channel.Reader.ReadAllAsync().ConfigureAwait(false))
            {
                counts.Add(page);
            }

            return counts;
        })).ToArray();
        Task.Run(async () =>
        {
            foreach (var page in Pages(dump, passes))
            {
                await channel.Writer.WriteAsync(page).ConfigureAwait(false);
            }

            channel.Writer.Complete();
        }).GetAwaiter().GetResult();
        return WordCounts.MergeAll(Task.WhenAll(workers).GetAwaiter().GetResult());
    }
}
