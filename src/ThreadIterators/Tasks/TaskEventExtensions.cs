using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// Turns a task into an event a green thread yields to wait for it without blocking its worker: one new
/// <see cref="TaskEvent"/> or <see cref="TaskEvent{T}"/> per call. A loop that waits for many tasks can reuse one
/// event instead, armed with its <c>For</c> method before each yield.
/// </summary>
/// <example>
/// <code>
/// static IEnumerable&lt;Event&gt; Echo(NetworkStream stream)
/// {
///     var buffer = new byte[1024];
///     var read = stream.ReadAsync(buffer).AsEvent();
///     yield return read;                      // Parks until bytes arrive; the worker runs other threads meanwhile.
///     int n = read.Result;                    // Throws the read's exception, if it failed.
///     var write = stream.WriteAsync(buffer.AsMemory(0, n)).AsEvent();
///     yield return write;
///     write.GetResult();
/// }
/// </code>
/// </example>
public static class TaskEventExtensions
{
    /// <summary>Makes an event that waits for <paramref name="task"/>; yield it, then call <see cref="TaskEvent.GetResult"/>.</summary>
    /// <param name="task">The task to wait for.</param>
    /// <returns>A new event, armed.</returns>
    /// <exception cref="System.ArgumentNullException"><paramref name="task"/> is null.</exception>
    public static TaskEvent AsEvent(this Task task) => new TaskEvent().For(task);

    /// <summary>Makes an event that waits for <paramref name="task"/>; yield it, then read <see cref="TaskEvent{T}.Result"/>.</summary>
    /// <typeparam name="T">The type of the task's result.</typeparam>
    /// <param name="task">The task to wait for.</param>
    /// <returns>A new event, armed.</returns>
    /// <exception cref="System.ArgumentNullException"><paramref name="task"/> is null.</exception>
    public static TaskEvent<T> AsEvent<T>(this Task<T> task) => new TaskEvent<T>().For(task);

    /// <summary>
    /// Makes an event that waits for <paramref name="task"/>; yield it, then call <see cref="TaskEvent.GetResult"/>.
    /// The event reads the value task's outcome once; do not await or read it elsewhere.
    /// </summary>
    /// <param name="task">The value task to wait for.</param>
    /// <returns>A new event, armed.</returns>
    public static TaskEvent AsEvent(this ValueTask task) => new TaskEvent().For(task);

    /// <summary>
    /// Makes an event that waits for <paramref name="task"/>; yield it, then read <see cref="TaskEvent{T}.Result"/>.
    /// The event reads the value task's result once; do not await or read it elsewhere.
    /// </summary>
    /// <typeparam name="T">The type of the task's result.</typeparam>
    /// <param name="task">The value task to wait for.</param>
    /// <returns>A new event, armed.</returns>
    public static TaskEvent<T> AsEvent<T>(this ValueTask<T> task) => new TaskEvent<T>().For(task);
}
