using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    /// <summary>The kinds of pending task the tests wait on; see <see cref="PendingTask"/>.</summary>
    private static readonly string[] s_pendingKinds =
    [
        "Task", "Task, asynchronous continuations", "Task<T>", "Task<T>, asynchronous continuations",
        "ValueTask<T> from a source", "ValueTask<T> from a source, asynchronous continuations", "ValueTask from a source",
        "ValueTask<T> over a Task<T>",
    ];

    [Fact]
    public void TaskEvent_CompletedTasks_ContinueWithoutParking_AndGiveTheirResults()
    {
        var plain = new TaskEvent();
        var typed = new TaskEvent<int>();
        var source = new ManualValueTaskSource<int>(runContinuationsAsynchronously: false);
        source.SetResult(5);
        var oneShots = new List<TaskEvent>();
        var typedOneShots = new List<TaskEvent<int>>();
        var results = new List<int>();
        Run(Body());

        Assert.Equal([1, 2, 3, 4, 5], results);
        Assert.Equal(1, source.Reads);
        Assert.False(Probe.HasParked(plain));
        Assert.False(Probe.HasParked(typed));
        Assert.Equal(2, oneShots.Count);
        Assert.All(oneShots, e => Assert.False(Probe.HasParked(e)));
        Assert.Equal(2, typedOneShots.Count);
        Assert.All(typedOneShots, e => Assert.False(Probe.HasParked(e)));

        IEnumerable<Event> Body()
        {
            yield return plain.For(Task.CompletedTask);
            plain.GetResult();
            yield return plain.For(ValueTask.CompletedTask);
            plain.GetResult();
            yield return typed.For(Task.FromResult(1));
            results.Add(typed.Result);
            yield return typed.For(new ValueTask<int>(2));
            results.Add(typed.Result);

            var task = Task.CompletedTask.AsEvent();
            oneShots.Add(task);
            yield return task;
            task.GetResult();
            var valueTask = default(ValueTask).AsEvent();
            oneShots.Add(valueTask);
            yield return valueTask;
            valueTask.GetResult();

            var typedTask = Task.FromResult(3).AsEvent();
            typedOneShots.Add(typedTask);
            yield return typedTask;
            results.Add(typedTask.Result);
            var typedValueTask = new ValueTask<int>(4).AsEvent();
            typedOneShots.Add(typedValueTask);
            yield return typedValueTask;
            results.Add(typedValueTask.Result);

            yield return typed.For(source.Task);
            results.Add(typed.Result);
            Assert.Equal(5, typed.Result);
        }
    }

    [Fact]
    public void TaskEvent_CompletedWaits_OnAReusableEvent_AllocateNothing()
    {
        const int chunks = 25;
        const int waitsPerChunk = 40;
        var completed = Task.FromResult(7);
        var allocated = -1L;
        var measured = 0;
        var sum = 0L;
        Run(Body());

        Assert.Equal(chunks * waitsPerChunk, measured);
        Assert.Equal(0, allocated);
        Assert.Equal((5 + (chunks * waitsPerChunk / 4)) * 15L, sum);

        IEnumerable<Event> Body()
        {
            var typed = new TaskEvent<int>();
            var plain = new TaskEvent();

            // Warm-up, not measured: the first waits compile the path.
            for (var i = 0; i < 5; i++)
            {
                foreach (var wait in FourWaits())
                {
                    yield return wait;
                }
            }

            var total = 0L;
            for (var chunk = 0; chunk < chunks; chunk++)
            {
                // A fresh turn, so the chunk's waits stay inside one turn's step budget, on one OS thread.
                yield return Event.Yield;
                var osThread = Environment.CurrentManagedThreadId;
                var before = GC.GetAllocatedBytesForCurrentThread();
                for (var i = 0; i < waitsPerChunk / 4; i++)
                {
                    yield return typed.For(completed);
                    sum += typed.Result;
                    yield return plain.For(Task.CompletedTask);
                    plain.GetResult();
                    yield return typed.For(new ValueTask<int>(8));
                    sum += typed.Result;
                    yield return plain.For(ValueTask.CompletedTask);
                    plain.GetResult();
                }

                total += GC.GetAllocatedBytesForCurrentThread() - before;
                Assert.Equal(osThread, Environment.CurrentManagedThreadId);
                measured += waitsPerChunk;
            }

            allocated = total;

            IEnumerable<Event> FourWaits()
            {
                yield return typed.For(completed);
                sum += typed.Result;
                yield return plain.For(Task.CompletedTask);
                plain.GetResult();
                yield return typed.For(new ValueTask<int>(8));
                sum += typed.Result;
                yield return plain.For(ValueTask.CompletedTask);
                plain.GetResult();
            }
        }
    }

    [Theory]
    [InlineData("Task")]
    [InlineData("Task, asynchronous continuations")]
    [InlineData("Task<T>")]
    [InlineData("Task<T>, asynchronous continuations")]
    [InlineData("ValueTask<T> from a source")]
    [InlineData("ValueTask<T> from a source, asynchronous continuations")]
    [InlineData("ValueTask from a source")]
    [InlineData("ValueTask<T> over a Task<T>")]
    public void TaskEvent_PendingTaskCompletedOnAnotherOsThread_ResumesTheThreadOnItsOwnWorker(string kind)
    {
        var workers = Probe.WorkerThreadIds(Scheduler);
        var wait = PendingTask(kind, 42);
        var resumedOn = 0;
        var result = 0;
        var thread = Scheduler.Spawn(Body(), "waiter");
        WaitUntil(wait.IsWaiting, "the waiter parks on its task");

        var completerId = 0;
        var completer = new Thread(() =>
        {
            completerId = Environment.CurrentManagedThreadId;
            wait.Complete();
        })
        {
            Name = "completer",
        };
        completer.Start();
        Assert.True(completer.Join(Timeout), "the completer did not finish");
        Join(thread);

        Assert.Equal(42, result);
        Assert.Contains(resumedOn, workers);
        Assert.NotEqual(completerId, resumedOn);
        Assert.Equal(1, wait.SourceReads());

        IEnumerable<Event> Body()
        {
            yield return wait.Event;
            resumedOn = Environment.CurrentManagedThreadId;
            Assert.StartsWith("ThreadIterators worker ", Thread.CurrentThread.Name, StringComparison.Ordinal);
            result = wait.Read();
        }
    }

    [Fact]
    public void TaskEvent_ManyThreadsWaitOnTasksCompletedBySeveralOsThreads_EachCompletionResumesItsThreadOnce()
    {
        const int threads = 200;
        const int waits = 40;
        const int completers = 3;
        var workers = Probe.WorkerThreadIds(Scheduler);
        var completions = new BlockingCollection<Action>();
        var failures = new ConcurrentQueue<Exception>();
        var resumed = new int[threads];
        var wrong = 0;
        var offWorker = 0;
        var completing = Enumerable.Range(0, completers).Select(c => new Thread(() =>
        {
            foreach (var complete in completions.GetConsumingEnumerable())
            {
                try
                {
                    complete();
                }
                catch (Exception exception)
                {
                    failures.Enqueue(exception);
                }
            }
        })
        {
            Name = $"completer {c}",
        }).ToList();
        completing.ForEach(t => t.Start());
        for (var t = 0; t < threads; t++)
        {
            Scheduler.Spawn(Waiter(t), $"waiter {t}");
        }

        WaitForAll();
        completions.CompleteAdding();
        completing.ForEach(t => Assert.True(t.Join(Timeout), $"{t.Name} did not finish"));

        Assert.Empty(failures);
        Assert.Equal(0, wrong);
        Assert.Equal(0, offWorker);
        Assert.All(resumed, count => Assert.Equal(waits, count));

        IEnumerable<Event> Waiter(int index)
        {
            var typed = new TaskEvent<int>();
            var plain = new TaskEvent();
            var source = new ManualValueTaskSource<int>(runContinuationsAsynchronously: index % 2 == 0);
            for (var i = 0; i < waits; i++)
            {
                var expected = (index * waits) + i;
                switch (i % 3)
                {
                    case 0:
                        var completion = new TaskCompletionSource<int>(i % 2 == 0 ? TaskCreationOptions.RunContinuationsAsynchronously : TaskCreationOptions.None);
                        completions.Add(() => completion.SetResult(expected));
                        yield return typed.For(completion.Task);
                        break;
                    case 1:
                        source.Reset();
                        var task = source.Task;
                        completions.Add(() => source.SetResult(expected));
                        yield return typed.For(task);
                        break;
                    default:
                        var plainCompletion = new TaskCompletionSource();
                        completions.Add(() => plainCompletion.SetResult());
                        yield return plain.For(plainCompletion.Task);
                        plain.GetResult();
                        break;
                }

                if (i % 3 != 2 && typed.Result != expected)
                {
                    Interlocked.Increment(ref wrong);
                }

                if (!workers.Contains(Environment.CurrentManagedThreadId))
                {
                    Interlocked.Increment(ref offWorker);
                }

                Interlocked.Increment(ref resumed[index]);
            }
        }
    }

    [Fact]
    public void TaskEvent_FaultedTasks_ReadingRethrowsTheOriginalException_WithTheStackTraceOfItsThrow()
    {
        var plainGate = new TaskCompletionSource();
        var typedGate = new TaskCompletionSource();
        var valueGate = new TaskCompletionSource();
        var source = new ManualValueTaskSource<int>(runContinuationsAsynchronously: false);
        var plain = FailAfterAsync(plainGate.Task, "plain, pending").AsEvent();
        var typed = FailWithResultAfterAsync(typedGate.Task, "typed, pending").AsEvent();
        var value = FailValueAfterAsync(valueGate.Task, "value task, pending").AsEvent();
        var fromSource = source.Task.AsEvent();
        var caught = new List<Exception>();
        var thread = Scheduler.Spawn(Body(), "reader");

        foreach (var (waiting, gate) in new (Func<bool> Waiting, Action Complete)[]
        {
            (() => Probe.IsWaiting(plain), plainGate.SetResult),
            (() => Probe.IsWaiting(typed), typedGate.SetResult),
            (() => Probe.IsWaiting(value), valueGate.SetResult),
            (() => Probe.IsWaiting(fromSource), () => source.SetException(Thrown("value task source, pending"))),
        })
        {
            WaitUntil(waiting, "the reader parks on its next task");
            gate();
        }

        Join(thread);
        Assert.Equal(
            ["plain, pending", "typed, pending", "value task, pending", "value task source, pending", "plain, completed", "typed, completed", "value task, completed"],
            caught.Select(e => e.Message));
        Assert.All(caught, e => Assert.IsType<InvalidOperationException>(e));
        Assert.All(caught, e => Assert.Contains(nameof(ThrowInsideTask), e.StackTrace, StringComparison.Ordinal));
        Assert.Equal(1, source.Reads);

        IEnumerable<Event> Body()
        {
            yield return plain;
            caught.Add(Catch(plain.GetResult));
            Assert.Same(caught[^1], Catch(plain.GetResult));
            yield return typed;
            caught.Add(Catch(() => typed.Result));
            Assert.Same(caught[^1], Catch(() => typed.Result));
            yield return value;
            caught.Add(Catch(() => value.Result));
            yield return fromSource;
            caught.Add(Catch(() => fromSource.Result));
            Assert.Same(caught[^1], Catch(() => fromSource.Result));

            var again = new TaskEvent();
            yield return again.For(FailAfterAsync(Task.CompletedTask, "plain, completed"));
            caught.Add(Catch(again.GetResult));
            var typedAgain = new TaskEvent<int>();
            yield return typedAgain.For(FailWithResultAfterAsync(Task.CompletedTask, "typed, completed"));
            caught.Add(Catch(() => typedAgain.Result));
            yield return typedAgain.For(FailValueAfterAsync(Task.CompletedTask, "value task, completed"));
            caught.Add(Catch(() => typedAgain.Result));
        }
    }

    [Fact]
    public void TaskEvent_CancelledTasks_ReadingThrowsOperationCanceled_AndAnUnreadCancellationIsNotReported()
    {
        var pending = new TaskCompletionSource<int>();
        var plainPending = new TaskCompletionSource();
        var typed = new TaskEvent<int>();
        var plain = new TaskEvent();
        var unread = new TaskEvent<int>();
        var caught = new List<Exception>();
        var thread = Scheduler.Spawn(Body(), "cancelled");
        WaitUntil(() => Probe.IsWaiting(typed), "the thread parks on the task");
        pending.SetCanceled();
        WaitUntil(() => Probe.IsWaiting(plain), "the thread parks on the second task");
        plainPending.SetCanceled();
        Join(thread);
        Scheduler.Dispose();

        Assert.Equal(4, caught.Count);
        Assert.All(caught, e => Assert.IsAssignableFrom<OperationCanceledException>(e));
        Assert.IsType<TaskCanceledException>(caught[0]);
        Assert.Empty(Unobserved);
        GC.KeepAlive(unread);

        IEnumerable<Event> Body()
        {
            yield return typed.For(pending.Task);
            caught.Add(Catch(() => typed.Result));
            yield return plain.For(plainPending.Task);
            caught.Add(Catch(plain.GetResult));
            yield return typed.For(ValueTask.FromCanceled<int>(new CancellationToken(canceled: true)));
            caught.Add(Catch(() => typed.Result));
            yield return plain.For(Task.FromCanceled(new CancellationToken(canceled: true)));
            caught.Add(Catch(plain.GetResult));
            yield return unread.For(Task.FromCanceled<int>(new CancellationToken(canceled: true)));
            yield return typed.For(Task.FromResult(1));
        }
    }

    [Fact]
    public void TaskEvent_FaultNeverRead_IsReported_AtOnceWhenTheEventIsArmedAgain_AndAtDisposalWhenKept()
    {
        ExpectUnobservedFaults = true;
        var kept = new TaskEvent<int>();
        var thread = Run(Body(), "careless");

        var first = Assert.Single(Unobserved);
        Assert.Same(thread, first.Thread);
        Assert.Equal("lost by arming again", first.Exception.Message);

        Scheduler.Dispose();
        Assert.Equal(2, Unobserved.Count);
        var second = Unobserved.Last();
        Assert.Same(thread, second.Thread);
        Assert.Equal("never read", second.Exception.Message);
        Assert.Contains(nameof(ThrowInsideTask), second.Exception.StackTrace, StringComparison.Ordinal);
        GC.KeepAlive(kept);

        IEnumerable<Event> Body()
        {
            var plain = new TaskEvent();
            yield return plain.For(FailAfterAsync(Task.CompletedTask, "lost by arming again"));
            yield return plain.For(Task.CompletedTask);
            plain.GetResult();

            var read = new TaskEvent<int>();
            yield return read.For(FailWithResultAfterAsync(Task.CompletedTask, "read, so not reported"));
            Assert.Equal("read, so not reported", Catch(() => read.Result).Message);
            yield return read.For(Task.FromResult(1));

            yield return kept.For(FailWithResultAfterAsync(Task.CompletedTask, "never read"));
        }
    }

    [Fact]
    public void TaskEvent_SchedulerDisposedWhileTasksCompleteOnOsThreads_FinallyBlocksRunOnce_AndCompletersSeeNothing()
    {
        const int rounds = 8;
        const int waiters = 48;
        for (var round = 0; round < rounds; round++)
        {
            var scheduler = round == 0 ? Scheduler : new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
            var unobserved = new ConcurrentQueue<Exception>();
            scheduler.UnobservedFault += (_, e) => unobserved.Enqueue(e.Exception);
            var finallies = new int[waiters];
            var waits = Enumerable.Range(0, waiters).Select(i => PendingTask(s_pendingKinds[i % s_pendingKinds.Length], i)).ToArray();
            var threads = waits.Select((wait, i) => scheduler.Spawn(WaitInsideTry(wait, finallies, i), $"waiter {i}")).ToArray();
            WaitUntil(() => waits.All(w => w.IsWaiting()), "every waiter parks on its task");

            // The first half of the tasks complete on two OS threads while the scheduler is disposed; the rest after.
            using var go = new ManualResetEventSlim();
            var failures = new ConcurrentQueue<Exception>();
            var completers = Enumerable.Range(0, 2).Select(c => new Thread(() =>
            {
                go.Wait();
                for (var i = c; i < waiters / 2; i += 2)
                {
                    try
                    {
                        waits[i].Complete();
                    }
                    catch (Exception exception)
                    {
                        failures.Enqueue(exception);
                    }
                }
            })).ToList();
            completers.ForEach(t => t.Start());
            go.Set();
            scheduler.Dispose();
            completers.ForEach(t => Assert.True(t.Join(Timeout), "a completer did not finish"));
            for (var i = waiters / 2; i < waiters; i++)
            {
                waits[i].Complete();
            }

            Assert.Empty(failures);
            Assert.All(finallies, count => Assert.Equal(1, count));
            Assert.Equal(0, scheduler.LiveThreadCount);
            Assert.All(threads, t => Assert.True(t.IsCompleted));
            Assert.All(threads, t => Assert.True(t.Exception is null or OperationCanceledException, $"{t} ended with {t.Exception}"));
            Assert.Empty(unobserved);
            for (var i = waiters / 2; i < waiters; i++)
            {
                // Parked on a task that had not completed: abandoned, so the event cannot wait again.
                var error = Assert.Throws<InvalidOperationException>(() => Rearm(waits[i].Event));
                Assert.Contains("abandoned", error.Message, StringComparison.Ordinal);
                Assert.Contains($"'waiter {i}'", error.Message, StringComparison.Ordinal);
            }
        }

        static IEnumerable<Event> WaitInsideTry(PendingTaskWait wait, int[] finallies, int index)
        {
            try
            {
                yield return wait.Event;
                Assert.Equal(index, wait.Read());
            }
            finally
            {
                Interlocked.Increment(ref finallies[index]);
            }
        }

        static void Rearm(Event taskEvent)
        {
            if (taskEvent is TaskEvent plain)
            {
                plain.For(Task.CompletedTask);
            }
            else
            {
                ((TaskEvent<int>)taskEvent).For(Task.FromResult(0));
            }
        }
    }

    [Fact]
    public void TaskEvent_YieldedByASecondThreadWhileTheFirstWaits_EndsTheSecondWithAMessageNamingBoth()
    {
        var completion = new TaskCompletionSource<int>();
        var shared = new TaskEvent<int>().For(completion.Task);
        var result = 0;
        var first = Scheduler.Spawn(First(), "first");
        WaitUntil(() => Probe.IsWaiting(shared), "the first thread parks on the task");

        var second = Scheduler.Spawn(Second(), "second");
        var error = Assert.Throws<InvalidOperationException>(() => second.Wait(Timeout));
        Assert.Contains("'second' yielded TaskEvent<Int32>", error.Message, StringComparison.Ordinal);
        Assert.Contains("'first' is waiting on it", error.Message, StringComparison.Ordinal);

        var arming = Assert.Throws<InvalidOperationException>(() => shared.For(Task.FromResult(0)));
        Assert.Contains("Code outside any green thread armed TaskEvent<Int32>", arming.Message, StringComparison.Ordinal);
        Assert.Contains("'first' is still waiting on it", arming.Message, StringComparison.Ordinal);
        var reading = Assert.Throws<InvalidOperationException>(() => shared.Result);
        Assert.Contains("Code outside any green thread read the Result of TaskEvent<Int32>", reading.Message, StringComparison.Ordinal);
        Assert.Contains("'first' is still waiting on it", reading.Message, StringComparison.Ordinal);

        completion.SetResult(5);
        Join(first);
        Assert.Equal(5, result);

        IEnumerable<Event> First()
        {
            yield return shared;
            result = shared.Result;
        }

        IEnumerable<Event> Second()
        {
            yield return shared;
        }
    }

    [Fact]
    public void TaskEvent_Misuse_EndsTheThreadWithAMessageNamingItAndTheEvent()
    {
        var unarmed = Scheduler.Spawn(Yield(new TaskEvent()), "never armed");
        var unarmedError = Assert.Throws<InvalidOperationException>(() => unarmed.Wait(Timeout));
        Assert.Contains("'never armed' yielded TaskEvent (unarmed) without arming it", unarmedError.Message, StringComparison.Ordinal);

        var twice = Scheduler.Spawn(YieldTwice(Task.FromResult(1).AsEvent()), "twice");
        var twiceError = Assert.Throws<InvalidOperationException>(() => twice.Wait(Timeout));
        Assert.Contains("'twice' yielded TaskEvent<Int32> (completed) again without arming it", twiceError.Message, StringComparison.Ordinal);

        var early = Scheduler.Spawn(ReadBeforeYield(), "impatient");
        var earlyError = Assert.Throws<InvalidOperationException>(() => early.Wait(Timeout));
        Assert.Contains("'impatient' read the Result of TaskEvent<Int32> (armed) before yielding it", earlyError.Message, StringComparison.Ordinal);

        var neverWaited = Assert.Throws<InvalidOperationException>(() => new TaskEvent<int>().Result);
        Assert.Contains("Code outside any green thread read the Result of TaskEvent<Int32> (unarmed) before any wait completed", neverWaited.Message, StringComparison.Ordinal);
        var neverWaitedPlain = Assert.Throws<InvalidOperationException>(() => new TaskEvent().GetResult());
        Assert.Contains("called GetResult() on TaskEvent (unarmed) before any wait completed", neverWaitedPlain.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentNullException>(() => new TaskEvent().For((Task)null!));

        // A value task its source no longer accepts ends the thread with the source's exception; the event stays usable.
        var source = new ManualValueTaskSource<int>(runContinuationsAsynchronously: false);
        var stale = source.Task;
        source.Reset();
        var reused = new TaskEvent<int>();
        var refused = Scheduler.Spawn(Yield(reused.For(stale)), "stale");
        Assert.Throws<InvalidOperationException>(() => refused.Wait(Timeout));
        Run(Yield(reused.For(Task.FromResult(9))));
        Assert.Equal(9, reused.Result);
        Assert.Throws<ArgumentNullException>(() => ((Task<int>)null!).AsEvent());

        static IEnumerable<Event> Yield(Event e)
        {
            yield return e;
        }

        static IEnumerable<Event> YieldTwice(Event e)
        {
            yield return e;
            yield return e;
        }

        static IEnumerable<Event> ReadBeforeYield()
        {
            var read = Task.FromResult(1).AsEvent();
            _ = read.Result;
            yield return read;
        }
    }

    [Fact]
    public void TaskEvent_SchedulerDisposedWhileWaiting_LaterCompletionDoesNothing_AndTheEventCannotWaitAgain()
    {
        var completion = new TaskCompletionSource<int>();
        var waiting = new TaskEvent<int>().For(completion.Task);
        var cleanedUp = 0;
        var thread = Scheduler.Spawn(Wait(), "abandoned");
        WaitUntil(() => Probe.IsWaiting(waiting), "the thread parks on the task");
        Scheduler.Dispose();

        Assert.Equal(1, cleanedUp);
        Assert.False(Probe.IsWaiting(waiting));
        Assert.Throws<OperationCanceledException>(() => thread.Wait(Timeout));
        completion.SetResult(1);
        Assert.Equal(1, cleanedUp);
        var error = Assert.Throws<InvalidOperationException>(() => waiting.For(Task.FromResult(2)));
        Assert.Contains("whose wait by GreenThread", error.Message, StringComparison.Ordinal);
        Assert.Contains("'abandoned' was abandoned", error.Message, StringComparison.Ordinal);

        IEnumerable<Event> Wait()
        {
            try
            {
                yield return waiting;
                Assert.Fail("resumed after its scheduler was disposed");
            }
            finally
            {
                cleanedUp++;
            }
        }
    }

    /// <summary>Makes a pending wait of one of <see cref="s_pendingKinds"/>, whose task completes with <paramref name="value"/>.</summary>
    private static PendingTaskWait PendingTask(string kind, int value)
    {
        var options = kind.EndsWith("asynchronous continuations", StringComparison.Ordinal) ? TaskCreationOptions.RunContinuationsAsynchronously : TaskCreationOptions.None;
        switch (kind)
        {
            case "Task" or "Task, asynchronous continuations":
            {
                var completion = new TaskCompletionSource(options);
                var e = completion.Task.AsEvent();
                return new(e, () => completion.SetResult(), () => Read(e, value), () => Probe.IsWaiting(e), () => 1);
            }

            case "Task<T>" or "Task<T>, asynchronous continuations":
            {
                var completion = new TaskCompletionSource<int>(options);
                var e = new TaskEvent<int>().For(completion.Task);
                return new(e, () => completion.SetResult(value), () => e.Result, () => Probe.IsWaiting(e), () => 1);
            }

            case "ValueTask<T> from a source" or "ValueTask<T> from a source, asynchronous continuations":
            {
                var source = new ManualValueTaskSource<int>(options == TaskCreationOptions.RunContinuationsAsynchronously);
                var e = source.Task.AsEvent();
                return new(e, () => source.SetResult(value), () => e.Result, () => Probe.IsWaiting(e), () => source.Reads);
            }

            case "ValueTask from a source":
            {
                var source = new ManualValueTaskSource<int>(runContinuationsAsynchronously: false);
                var e = new TaskEvent().For(source.PlainTask);
                return new(e, () => source.SetResult(value), () => Read(e, value), () => Probe.IsWaiting(e), () => source.Reads);
            }

            default:
            {
                var completion = new TaskCompletionSource<int>();
                var e = new ValueTask<int>(completion.Task).AsEvent();
                return new(e, () => completion.SetResult(value), () => e.Result, () => Probe.IsWaiting(e), () => 1);
            }
        }

        static int Read(TaskEvent e, int value)
        {
            e.GetResult();
            return value;
        }
    }

    private static Exception Catch(Action read)
    {
        try
        {
            read();
        }
        catch (Exception exception)
        {
            return exception;
        }

        throw new InvalidOperationException("reading the outcome did not throw");
    }

    private static Exception Catch(Func<int> read) => Catch(() => { _ = read(); });

    private static async Task FailAfterAsync(Task gate, string message)
    {
        await gate.ConfigureAwait(false);
        ThrowInsideTask(message);
    }

    private static async Task<int> FailWithResultAfterAsync(Task gate, string message)
    {
        await gate.ConfigureAwait(false);
        ThrowInsideTask(message);
        return 0;
    }

    private static async ValueTask<int> FailValueAfterAsync(Task gate, string message)
    {
        await gate.ConfigureAwait(false);
        ThrowInsideTask(message);
        return 0;
    }

    /// <summary>Gets an exception thrown (so it has a stack trace) inside <see cref="ThrowInsideTask"/>.</summary>
    private static Exception Thrown(string message)
    {
        try
        {
            ThrowInsideTask(message);
            return null!;
        }
        catch (Exception exception)
        {
            return exception;
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowInsideTask(string message) => throw new InvalidOperationException(message);

    /// <summary>A pending wait of a test: the event to yield, and how to complete its task, read its outcome, see it parked, and count its source's reads.</summary>
    private sealed record PendingTaskWait(Event Event, Action Complete, Func<int> Read, Func<bool> IsWaiting, Func<int> SourceReads);
}
