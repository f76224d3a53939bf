using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void RunBlocking_CallBlocksItsOsThread_WorkersStayFree_AndTheResultArrives()
    {
        // The blocking call waits until another green thread has run to its end; were it run on a worker, one worker
        // would be blocked, and on one worker that thread could never run.
        var otherRan = new ManualResetEventSlim(false);
        var blockedOn = -1;
        int result = 0;
        var caller = Scheduler.Spawn(Call(), "caller");
        WaitUntil(() => Volatile.Read(ref blockedOn) != -1, "the blocking call has started");
        Run(Other(), "other");
        Join(caller);
        Assert.Equal(42, result);
        Assert.DoesNotContain(blockedOn, Probe.WorkerThreadIds(Scheduler));

        IEnumerable<Event> Call()
        {
            var call = TaskEvent.RunBlocking(() =>
            {
                Volatile.Write(ref blockedOn, Environment.CurrentManagedThreadId);
                Assert.True(otherRan.Wait(Timeout), "the other green thread never ran while the call blocked");
                return 42;
            });
            yield return call;
            result = call.Result;
        }

        IEnumerable<Event> Other()
        {
            otherRan.Set();
            yield break;
        }
    }

    [Fact]
    public void RunBlocking_ActionThrows_GetResultRethrowsIt()
    {
        string? caught = null;
        Run(Call(), "caller");
        Assert.Equal("blocking call failed", caught);

        IEnumerable<Event> Call()
        {
            var call = TaskEvent.RunBlocking(() => throw new InvalidOperationException("blocking call failed"));
            yield return call;
            try
            {
                call.GetResult();
            }
            catch (InvalidOperationException exception)
            {
                caught = exception.Message;
            }
        }
    }

    [Fact]
    public void RunBlocking_NullFunction_Refused()
    {
        Assert.Equal("function", Assert.Throws<ArgumentNullException>(() => TaskEvent.RunBlocking<int>(null!)).ParamName);
        Assert.Equal("action", Assert.Throws<ArgumentNullException>(() => TaskEvent.RunBlocking(null!)).ParamName);
    }
}
