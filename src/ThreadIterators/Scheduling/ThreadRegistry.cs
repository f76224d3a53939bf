using System.Collections.Generic;

namespace ThreadIterators;

/// <summary>
/// The set of live green threads, so disposal can reach threads that are parked and referenced only by a mailbox,
/// and reports can name them: one <see cref="ThreadLog"/> per worker for the threads it spawns, and one for those
/// spawned off the workers.
/// </summary>
/// <remarks>Any thread, as each method says; a worker's log is appended to by that worker only.</remarks>
internal sealed class ThreadRegistry
{
    private readonly ThreadLog[] _workerLogs;

    private readonly ThreadLog _outside = new();

    internal ThreadRegistry(int workers)
    {
        _workerLogs = new ThreadLog[workers];
        for (var i = 0; i < workers; i++)
        {
            _workerLogs[i] = new ThreadLog();
        }
    }

    /// <summary>Adds a thread just spawned by <paramref name="spawner"/>, or by an OS thread that is no worker (null).</summary>
    internal void Add(GreenThread thread, Worker? spawner)
    {
        if (spawner is not null)
        {
            _workerLogs[spawner.Index].Append(thread);
            return;
        }

        lock (_outside)
        {
            _outside.Append(thread);
        }
    }

    /// <summary>Removes a thread whose spawn failed; returns false if <see cref="TakeAll"/> took it first. Its spawner only.</summary>
    internal bool Remove(GreenThread thread, Worker? spawner) => (spawner is null ? _outside : _workerLogs[spawner.Index]).Remove(thread);

    /// <summary>
    /// Lets <paramref name="worker"/>, now idle, drop the ended threads of its log if it has doubled since it last did
    /// or holds more than twice <paramref name="liveAtMost"/> (see <see cref="ThreadLog.DropEndedIfGrown"/>).
    /// </summary>
    internal void WorkerIdle(Worker worker, long liveAtMost) => _workerLogs[worker.Index].DropEndedIfGrown(liveAtMost);

    /// <summary>Gets the threads the logs hold, ended ones not yet dropped included; for tests of the drops.</summary>
    internal int HeldCount
    {
        get
        {
            var held = 0;
            foreach (var log in _workerLogs)
            {
                held += log.Count;
            }

            return held + _outside.Count;
        }
    }

    /// <summary>Drops the ended threads of the outside log; when no thread is live, so a burst of outside spawns is not kept alive.</summary>
    internal void NoneLive()
    {
        lock (_outside)
        {
            _outside.DropEndedIfGrown(force: true);
        }
    }

    /// <summary>
    /// Finds a live thread by id: for exception messages, which name the thread, and for a thread's first read of
    /// <see cref="GreenThread.Current"/>. A binary search of each worker's log, then a walk of the outside one. Null
    /// once the thread has ended.
    /// </summary>
    internal GreenThread? Find(long id)
    {
        foreach (var log in _workerLogs)
        {
            if (log.Find(id, ordered: true) is { } thread)
            {
                return thread;
            }
        }

        return _outside.Find(id, ordered: false);
    }

    /// <summary>Returns every thread the registry holds that has not ended, leaving them in it; for a report, off every hot path.</summary>
    internal List<GreenThread> Snapshot()
    {
        var all = new List<GreenThread>();
        foreach (var log in _workerLogs)
        {
            log.CopyLive(all);
        }

        _outside.CopyLive(all);
        return all;
    }

    /// <summary>
    /// Empties the registry and returns every thread it held that has not ended, newest first: a thread that joins
    /// another was most often spawned after it, and stopping the joiner first takes it off the target's joiners
    /// before the target's end would make it ready. Disposal, once the workers have stopped.
    /// </summary>
    internal List<GreenThread> TakeAll()
    {
        var all = new List<GreenThread>();
        foreach (var log in _workerLogs)
        {
            log.TakeAll(all);
        }

        _outside.TakeAll(all);
        all.Sort(static (a, b) => b.Id.CompareTo(a.Id));
        return all;
    }
}
