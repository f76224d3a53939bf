using System;
using System.Collections;
using System.Collections.Generic;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A green thread's stack of bodies once it has made a sub-body call (<see cref="Event.Call(IEnumerable{Event})"/>):
/// it stands in the thread's body, so the worker steps it as it steps any body, and it steps the innermost body.
/// </summary>
/// <remarks>
/// <para>
/// The steps of a call, each written once, here or in the type named:
/// </para>
/// <list type="number">
/// <item><b>Make.</b> <c>Event.Call</c>, run by the caller's body on its green thread, puts this stack in place of the
/// thread's body the first time (<see cref="GreenThread.CallStack"/>) and prepares the frame one above the innermost
/// body (<see cref="Prepare"/>): the frame is reused from call to call, and its generation, which the <c>Call</c> value
/// keeps, tells a later call's use of it from this one's.</item>
/// <item><b>Push.</b> The caller yields the call; the frame's <c>Park</c> pushes it (<see cref="Push"/>) and answers
/// <see cref="EventOutcome.Called"/>, on which the worker takes the thread's body again, this stack, and steps on in the
/// same turn: the sub-body runs on the thread, with no OS stack frame per level.</item>
/// <item><b>Return.</b> The sub-body yields <c>Event.Return(value)</c>, which stores the value in the frame; its
/// <c>Park</c> pops the frame (<see cref="Return"/>), disposing the sub-body so its <c>finally</c> blocks run, as a
/// <c>return</c> runs them. A sub-body that runs to its end returns with no value (<see cref="MoveNext"/>); one that
/// was called for a value and gave none faults, as below. The caller's next step reads the value from its <c>Call</c>.</item>
/// <item><b>Fault.</b> An exception from the innermost body pops its frame (<see cref="Unwind"/>). If the caller asked to
/// catch it (<c>Call.Catch()</c>), the caller resumes and reads it from the call. Otherwise it is thrown at the
/// caller's yield: the caller is disposed, running its <c>finally</c> blocks (a C# iterator cannot catch at a yield, so
/// this is all a throw there could do), and the exception goes on to the caller's caller, and so on; from the
/// outermost body it ends the thread as any fault does. An exception from a <c>finally</c> block replaces it, as in C#.</item>
/// <item><b>End.</b> A stop or a disposal disposes this stack: every body, the innermost first (<see cref="Dispose"/>).</item>
/// </list>
/// <para>
/// The running worker only, as the thread's body is; the wait-for graph reads <see cref="Names"/> from any thread,
/// and tolerates a stack that changes under it.
/// </para>
/// </remarks>
internal sealed class CallStack : IEnumerator<Event>
{
    private readonly GreenThread _thread;

    /// <summary>The outermost body, the one spawned.</summary>
    private readonly IEnumerator<Event> _root;

    /// <summary>The frames; index 1 up to <see cref="_depth"/> are the sub-bodies running, innermost last; the rest are kept to reuse.</summary>
    private CallFrame?[] _frames = new CallFrame?[4];

    private int _depth;

    /// <summary>
    /// The stack whose <see cref="MoveNext"/> runs on this OS thread, if any: where <c>Event.Call</c> and
    /// <c>Event.Return</c> find the stack of the body that calls them, without looking the running thread up.
    /// </summary>
    [ThreadStatic]
    private static CallStack? t_stepping;

    /// <summary>Whether the innermost body has made a call since the last push: what <see cref="MoveNext"/> looks for in a yield.</summary>
    private bool _callMade;

    /// <summary>How many calls and returns in a row <see cref="MoveNext"/> takes before it leaves the next to the worker.</summary>
    private const int Transitions = 64;

    internal CallStack(GreenThread thread, IEnumerator<Event> root)
    {
        _thread = thread;
        _root = root;
    }

    /// <summary>Puts a call stack in place of <paramref name="thread"/>'s body, at its first call; kept from then on.</summary>
    internal static CallStack Install(GreenThread thread, IEnumerator<Event> root)
    {
        var stack = new CallStack(thread, root);
        thread.CallThrough(stack);
        return stack;
    }

    /// <summary>Gets the thread whose stack this is.</summary>
    internal GreenThread Thread => _thread;

    /// <summary>Gets how many sub-bodies are running.</summary>
    internal int Depth => _depth;

    /// <summary>Gets the innermost sub-body's frame. Only while <see cref="Depth"/> is above zero.</summary>
    internal CallFrame Top => _frames[_depth]!;

    /// <inheritdoc/>
    public Event Current => Innermost.Current;

    object IEnumerator.Current => Current;

    private IEnumerator<Event> Innermost => _depth == 0 ? _root : _frames[_depth]!.Body!;

    /// <summary>Prepares the frame of a call the innermost body is making (step 1).</summary>
    internal CallFrame Prepare(IEnumerator<Event> body, bool wantsValue)
    {
        var index = _depth + 1;
        if (index == _frames.Length)
        {
            Array.Resize(ref _frames, _frames.Length * 2);
        }

        var frame = _frames[index] ??= new CallFrame(this, index);
        frame.Prepare(body, wantsValue);
        _callMade = true;
        return frame;
    }

    /// <summary>Pushes a prepared frame (step 2); false if it is not the one above the innermost body.</summary>
    internal bool Push(CallFrame frame)
    {
        if (frame.Index != _depth + 1 || !frame.IsPrepared)
        {
            return false;
        }

        frame.Start();
        _depth = frame.Index;
        _callMade = false;
        return true;
    }

    /// <summary>Pops the innermost frame, whose body has yielded its value (step 3).</summary>
    internal void Return()
    {
        var frame = Top;
        try
        {
            frame.Body!.Dispose();
        }
        catch (Exception exception)
        {
            // A finally block threw on the way out: that is the call's fault, thrown at the caller's yield.
            Unwind(ExceptionDispatchInfo.Capture(exception));
            return;
        }

        _depth--;
        frame.Returned();
    }

    /// <summary>
    /// Steps the innermost body. A call it yields is pushed, and a return popped, here, without a step of the worker's
    /// each (up to <see cref="Transitions"/> in a row, then through the worker, whose budget then bounds a thread
    /// that only calls); a body ended or faulted returns to its caller here too.
    /// </summary>
    /// <returns>Whether the thread yielded an event; false once its outermost body has ended.</returns>
    public bool MoveNext()
    {
        var outer = t_stepping;
        t_stepping = this;
        try
        {
            return Step();
        }
        finally
        {
            t_stepping = outer;
        }
    }

    /// <summary>Gets the stack of the thread whose body is running on this OS thread, once it has one; null otherwise.</summary>
    internal static CallStack? Stepping => t_stepping;

    /// <summary>Steps the innermost body, as <see cref="MoveNext"/> says.</summary>
    private bool Step()
    {
        var transitions = 0;
        while (true)
        {
            var frame = _depth == 0 ? null : Top;
            var body = frame is null ? _root : frame.Body!;
            bool moved;
            try
            {
                moved = body.MoveNext();
            }
            catch (Exception exception) when (frame is not null)
            {
                Unwind(ExceptionDispatchInfo.Capture(exception));
                continue;
            }

            if (moved)
            {
                if (++transitions > Transitions)
                {
                    // Through the worker: the call's or return's own Park does what the branches below do.
                    return true;
                }

                if (frame is { IsReturning: true } && body.Current is ReturnEvent)
                {
                    // Event.Return stored the value: the step the worker would take to park on the return, taken here.
                    Return();
                    continue;
                }

                if (_callMade && body.Current is CallFrame made && Push(made))
                {
                    // A call made and yielded in that step: pushed, as the worker's step to park on it would.
                    continue;
                }

                return true;
            }

            if (frame is null)
            {
                return false;
            }

            // The sub-body ran to its end (its finally blocks have run): a call for no value returns here.
            if (frame.WantsValue)
            {
                Unwind(ExceptionDispatchInfo.Capture(new InvalidOperationException(
                    $"{DescribeBody(body)} ended without yielding Event.Return(value), on {_thread}, but was called with Event.Call<T> for a value.")));
                continue;
            }

            _depth--;
            frame.Returned();
        }
    }

    /// <summary>
    /// Unwinds from the innermost frame with <paramref name="fault"/> (step 4): returns once a caller that catches it is
    /// innermost, and throws it from the outermost body otherwise.
    /// </summary>
    internal void Unwind(ExceptionDispatchInfo fault)
    {
        while (true)
        {
            // The innermost body ends: the one that threw (a compiler-made iterator has run its finally blocks already,
            // and its disposal does nothing), or a caller the exception is thrown at, whose finally blocks run now.
            var frame = Top;
            try
            {
                frame.Body!.Dispose();
            }
            catch (Exception exception)
            {
                fault = ExceptionDispatchInfo.Capture(exception);
            }

            _depth--;
            if (frame.Catches)
            {
                frame.Faulted(fault);
                return;
            }

            frame.Faulted(fault: null);
            if (_depth == 0)
            {
                // Thrown at the outermost body's yield: the thread's fault. Its disposal, at the thread's end, runs its
                // finally blocks.
                fault.Throw();
            }
        }
    }

    /// <summary>Disposes every body, the innermost first (step 5); the first exception is thrown, the others reported.</summary>
    public void Dispose()
    {
        Exception? first = null;
        while (true)
        {
            var body = Innermost;
            try
            {
                body.Dispose();
            }
            catch (Exception exception)
            {
                if (first is null)
                {
                    first = exception;
                }
                else
                {
                    _thread.Scheduler.ReportUnobserved(_thread, exception);
                }
            }

            if (_depth == 0)
            {
                break;
            }

            Top.Faulted(fault: null);
            _depth--;
        }

        if (first is not null)
        {
            ExceptionDispatchInfo.Throw(first);
        }
    }

    /// <inheritdoc/>
    public void Reset() => throw new NotSupportedException();

    /// <summary>
    /// Gets the names of the bodies, the outermost first: the methods that made the iterators, where the compiler's
    /// names tell them. Any thread; a racy read of a stack that may be changing, for the wait-for graph.
    /// </summary>
    internal string[] Names()
    {
        var frames = _frames;
        var depth = Math.Min(Volatile.Read(ref _depth), frames.Length - 1);
        var names = new List<string> { DescribeBody(_root) };
        for (var i = 1; i <= depth; i++)
        {
            if (frames[i]?.Body is { } body)
            {
                names.Add(DescribeBody(body));
            }
        }

        return names.ToArray();
    }

    /// <summary>
    /// Names a body by the method that made it: the compiler names an iterator <c>&lt;Method&gt;d__N</c>, or
    /// <c>&lt;&lt;Outer&gt;g__Local|N_M&gt;d</c> for a local function's.
    /// </summary>
    internal static string DescribeBody(IEnumerator<Event> body)
    {
        var name = body.GetType().Name;
        var local = name.IndexOf(">g__", StringComparison.Ordinal);
        if (local >= 0)
        {
            var end = name.IndexOf('|', local);
            return end > local ? name[(local + 4)..end] : name;
        }

        if (name.StartsWith('<') && name.IndexOf('>', StringComparison.Ordinal) is var close and > 1)
        {
            return name[1..close];
        }

        return TypeNames.Format(body.GetType());
    }
}
