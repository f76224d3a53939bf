using System;
using System.Threading.Tasks;

namespace ThreadIterators;

// RunBlocking: a blocking call run on the thread pool as a task event, so that it does not hold a worker.
public sealed partial class TaskEvent
{
    /// <summary>
    /// Creates an event that runs a blocking function on the thread pool and resumes the yielding green thread with
    /// its result, so a synchronous call (<c>File.ReadAllText</c>, a synchronous driver, <c>Thread.Sleep</c>) does not
    /// hold a worker and every green thread queued on it.
    /// </summary>
    /// <remarks>
    /// The function starts at once, on a thread-pool thread (<see cref="Task.Run{TResult}(Func{TResult})"/>), not when
    /// the event is yielded; yield the event right away. After the thread resumes, <see cref="TaskEvent{T}.Result"/>
    /// returns what the function returned or throws what it threw. Prefer an asynchronous API where there is one: a
    /// blocked pool thread is a whole OS thread.
    /// </remarks>
    /// <typeparam name="T">The function's result type.</typeparam>
    /// <param name="function">The blocking call.</param>
    /// <returns>A new event to yield.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="function"/> is null.</exception>
    /// <example>
    /// <code>
    /// var text = TaskEvent.RunBlocking(() =&gt; File.ReadAllText(path));
    /// yield return text;
    /// Console.WriteLine(text.Result.Length);
    /// </code>
    /// </example>
    public static TaskEvent<T> RunBlocking<T>(Func<T> function)
    {
        ArgumentNullException.ThrowIfNull(function);
        return new TaskEvent<T>().For(Task.Run(function));
    }

    /// <summary>
    /// Creates an event that runs a blocking action on the thread pool and resumes the yielding green thread when it
    /// has finished; <see cref="TaskEvent.GetResult"/> then throws what the action threw. See
    /// <c>RunBlocking&lt;T&gt;(Func&lt;T&gt;)</c>.
    /// </summary>
    /// <param name="action">The blocking call.</param>
    /// <returns>A new event to yield.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="action"/> is null.</exception>
    public static TaskEvent RunBlocking(Action action)
    {
        ArgumentNullException.ThrowIfNull(action);
        return new TaskEvent().For(Task.Run(action));
    }
}
