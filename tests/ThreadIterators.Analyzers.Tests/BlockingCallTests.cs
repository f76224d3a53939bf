namespace ThreadIterators.Analyzers.Tests;

/// <summary>TI0001: the blocking calls a green-thread body makes, and the calls that look alike but do not block it.</summary>
public sealed class BlockingCallTests
{
    [Fact]
    public void TaskResult_InBody_IsFlagged()
    {
        Snippet.Verify(
            """
            static class C
            {
                static IEnumerable<Event> Fetch(Task<int> task, ValueTask<long> value)
                {
                    int n = task.Result; // TI0001
                    long m = value.Result; // TI0001
                    yield return Event.Yield;
                }
            }
            """,
            ("TI0001", "Task.Result", "Fetch"),
            ("TI0001", "ValueTask.Result", "Fetch"));
    }

    [Fact]
    public void TaskWait_EveryOverload_IsFlagged()
    {
        Snippet.Verify(
            """
            static class C
            {
                static IEnumerable<Event> Join(Task task, Task<int> typed, CancellationToken token)
                {
                    task.Wait(); // TI0001
                    task.Wait(100); // TI0001
                    task.Wait(TimeSpan.FromSeconds(1)); // TI0001
                    task.Wait(token); // TI0001
                    typed.Wait(); // TI0001
                    yield return Event.Yield;
                }
            }
            """,
            ("TI0001", "Task.Wait", "Join"),
            ("TI0001", "Task.Wait", "Join"),
            ("TI0001", "Task.Wait", "Join"),
            ("TI0001", "Task.Wait", "Join"),
            ("TI0001", "Task.Wait", "Join"));
    }

    [Fact]
    public void WaitAllWaitAnyAndWhenAllWait_AreFlagged()
    {
        Snippet.Verify(
            """
            static class C
            {
                static IEnumerable<Event> Gather(Task a, Task b)
                {
                    Task.WaitAll(a, b); // TI0001
                    Task.WaitAny(a, b); // TI0001
                    Task.WhenAll(a, b).Wait(); // TI0001
                    Task.WhenAll(a, b)
                        .Wait(); // TI0001
                    yield return Event.Yield;
                }
            }
            """,
            ("TI0001", "Task.WaitAll", "Gather"),
            ("TI0001", "Task.WaitAny", "Gather"),
            ("TI0001", "Task.Wait", "Gather"),
            ("TI0001", "Task.Wait", "Gather"));
    }

    [Fact]
    public void GetAwaiterGetResult_OnEveryTaskKind_IsFlagged()
    {
        Snippet.Verify(
            """
            static class C
            {
                static IEnumerable<Event> Await(Task task, Task<int> typed, ValueTask value, ValueTask<int> typedValue)
                {
                    task.GetAwaiter().GetResult(); // TI0001
                    int a = typed.GetAwaiter().GetResult(); // TI0001
                    value.GetAwaiter().GetResult(); // TI0001
                    int b = typedValue.GetAwaiter().GetResult(); // TI0001
                    task.ConfigureAwait(false).GetAwaiter().GetResult(); // TI0001
                    int c = typed.ConfigureAwait(false).GetAwaiter().GetResult(); // TI0001
                    yield return Event.Yield;
                }
            }
            """,
            ("TI0001", "GetAwaiter().GetResult()", "Await"),
            ("TI0001", "GetAwaiter().GetResult()", "Await"),
            ("TI0001", "GetAwaiter().GetResult()", "Await"),
            ("TI0001", "GetAwaiter().GetResult()", "Await"),
            ("TI0001", "ConfigureAwait(...).GetAwaiter().GetResult()", "Await"),
            ("TI0001", "ConfigureAwait(...).GetAwaiter().GetResult()", "Await"));
    }

    [Fact]
    public void ThreadSleep_MessageSuggestsEventSleep()
    {
        var diagnostics = Snippet.Analyze(
            """
            static class C
            {
                static IEnumerable<Event> Ping()
                {
                    Thread.Sleep(10);
                    yield return Event.Yield;
                }
            }
            """);

        var diagnostic = Assert.Single(diagnostics);
        Assert.Equal(
            "'Thread.Sleep' blocks the worker running green-thread body 'Ping'; yield Event.Sleep(...) instead",
            diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture));
    }

    [Fact]
    public void ThreadingPrimitives_AreFlagged()
    {
        Snippet.Verify(
            """
            static class C
            {
                static IEnumerable<Event> Sync(
                    Thread thread, object gate, SemaphoreSlim semaphore, ManualResetEventSlim slim, CountdownEvent countdown,
                    ManualResetEvent handle, WaitHandle[] handles, BlockingCollection<int> queue)
                {
                    Thread.Sleep(10); // TI0001
                    thread.Join(); // TI0001
                    Monitor.Wait(gate); // TI0001
                    semaphore.Wait(); // TI0001
                    slim.Wait(); // TI0001
                    countdown.Wait(); // TI0001
                    handle.WaitOne(); // TI0001
                    WaitHandle.WaitAll(handles); // TI0001
                    WaitHandle.WaitAny(handles); // TI0001
                    int item = queue.Take(); // TI0001
                    yield return Event.Yield;
                }
            }
            """,
            ("TI0001", "Thread.Sleep", "Sync"),
            ("TI0001", "Thread.Join", "Sync"),
            ("TI0001", "Monitor.Wait", "Sync"),
            ("TI0001", "SemaphoreSlim.Wait", "Sync"),
            ("TI0001", "ManualResetEventSlim.Wait", "Sync"),
            ("TI0001", "CountdownEvent.Wait", "Sync"),
            ("TI0001", "WaitHandle.WaitOne", "Sync"),
            ("TI0001", "WaitHandle.WaitAll", "Sync"),
            ("TI0001", "WaitHandle.WaitAny", "Sync"),
            ("TI0001", "BlockingCollection.Take", "Sync"));
    }

    [Fact]
    public void GreenThreadWaitAndSchedulerWaitForAll_AreFlagged()
    {
        Snippet.Verify(
            """
            static class C
            {
                static IEnumerable<Event> Parent(GreenThread child, Scheduler scheduler)
                {
                    child.Wait(); // TI0001
                    bool done = child.Wait(TimeSpan.FromSeconds(1)); // TI0001
                    scheduler.WaitForAll(); // TI0001
                    yield return child.Exited;
                }
            }
            """,
            ("TI0001", "GreenThread.Wait", "Parent"),
            ("TI0001", "GreenThread.Wait", "Parent"),
            ("TI0001", "Scheduler.WaitForAll", "Parent"));
    }

    [Fact]
    public void EveryKindOfBody_IsAnalyzed()
    {
        Snippet.Verify(
            """
            class C
            {
                IEnumerator<Event> Enumerator()
                {
                    Thread.Sleep(1); // TI0001
                    yield break;
                }

                IEnumerable<Event> Property
                {
                    get
                    {
                        Thread.Sleep(1); // TI0001
                        yield break;
                    }
                }

                IEnumerable<TaskEvent> Derived(Task task)
                {
                    task.Wait(); // TI0001
                    yield return task.AsEvent();
                }

                void Host(Scheduler scheduler, Task<int> task)
                {
                    scheduler.Spawn(Local());

                    IEnumerable<Event> Local()
                    {
                        int n = task.Result; // TI0001
                        yield return Event.Yield;
                    }
                }
            }
            """,
            ("TI0001", "Thread.Sleep", "Enumerator"),
            ("TI0001", "Thread.Sleep", "Property"),
            ("TI0001", "Task.Wait", "Derived"),
            ("TI0001", "Task.Result", "Local"));
    }

    [Fact]
    public void LambdasInBody_RunElsewhere_AreNotFlagged()
    {
        Snippet.VerifyNone(
            """
            static class C
            {
                static IEnumerable<Event> Reader(string path, Task task, Task<int> typed)
                {
                    var text = TaskEvent.RunBlocking(() => File.ReadAllText(path));
                    yield return text;
                    yield return TaskEvent.RunBlocking(() => task.Wait());
                    yield return TaskEvent.RunBlocking(() => typed.Result);
                    yield return Task.Run(() => { Thread.Sleep(10); task.Wait(); }).AsEvent();
                    Func<int> later = delegate { return typed.Result; };
                    yield return TaskEvent.RunBlocking(later);
                }
            }
            """);
    }

    [Fact]
    public void NestedLocalFunctionThatIsNotABody_IsNotFlagged()
    {
        Snippet.VerifyNone(
            """
            static class C
            {
                static IEnumerable<Event> Outer(Task<int> task)
                {
                    yield return TaskEvent.RunBlocking(Read);

                    int Read() => task.Result;
                }
            }
            """);
    }

    [Fact]
    public void MethodsThatAreNotBodies_AreNotFlagged()
    {
        Snippet.VerifyNone(
            """
            using System.Linq;

            static class C
            {
                static int Plain(Task<int> task) => task.Result;

                static void Blocks(Task task)
                {
                    task.Wait();
                    Thread.Sleep(1);
                }

                // Returns events but is no iterator: it runs on the caller's thread when called.
                static IEnumerable<Event> Eager(Task<int> task)
                {
                    var n = task.Result;
                    return new[] { Event.Yield };
                }

                // An iterator, but not of events: not a green-thread body.
                static IEnumerable<int> Numbers(Task<int> task)
                {
                    yield return task.Result;
                }

                static Func<IEnumerable<Event>> Factory(Task task) => () => Enumerable.Empty<Event>();
            }
            """);
    }

    [Fact]
    public void NonBlockingLookalikes_AreNotFlagged()
    {
        Snippet.VerifyNone(
            """
            static class C
            {
                static readonly object Gate = new();

                static IEnumerable<Event> Body(Task<int> task, SemaphoreSlim semaphore, GreenThread child)
                {
                    var read = task.AsEvent();
                    yield return read;
                    int n = read.Result;
                    var wait = semaphore.WaitAsync().AsEvent();
                    yield return wait;
                    wait.GetResult();
                    lock (Gate)
                    {
                        n++;
                    }

                    string name = nameof(task.Result);
                    bool done = task.IsCompleted && child.IsCompleted;
                    yield return child.Exited;
                }
            }
            """);
    }

    [Fact]
    public void ResultOfATaskAlreadyYieldedOrChecked_IsNotFlagged()
    {
        Snippet.VerifyNone(
            """
            class C
            {
                private Task<int> _pending = Task.FromResult(0);

                IEnumerable<Event> Body(Task<int> task, ValueTask<int> value, Task plain)
                {
                    yield return task.AsEvent();
                    int a = task.Result;
                    int b = task.GetAwaiter().GetResult();
                    if (value.IsCompletedSuccessfully)
                    {
                        b += value.Result;
                    }

                    yield return plain.AsEvent();
                    plain.Wait();
                    yield return Task.WhenAll(plain, _pending).AsEvent();
                    int c = _pending.Result;
                }
            }
            """);
    }

    [Fact]
    public void ResultRead_BeforeTheYield_OrOfAnotherTask_IsFlagged()
    {
        Snippet.Verify(
            """
            static class C
            {
                static IEnumerable<Event> Body(Task<int> task, Task<int> other)
                {
                    int early = task.Result; // TI0001
                    yield return task.AsEvent();
                    int late = other.Result; // TI0001
                    Task.WaitAll(task, other); // TI0001
                }
            }
            """,
            ("TI0001", "Task.Result", "Body"),
            ("TI0001", "Task.Result", "Body"),
            ("TI0001", "Task.WaitAll", "Body"));
    }
}
