using System;
using System.Linq;

namespace ThreadIterators.Analyzers.Tests;

/// <summary>TI0002: events a green-thread body creates and drops, and the ways of keeping an event that are fine.</summary>
public sealed class UnyieldedEventTests
{
    [Fact]
    public void TwoPutsNotYielded_AreTwoDiagnostics()
    {
        // With capacity 1 the second put finds the mailbox full and its message is dropped without an error.
        var diagnostics = Snippet.Analyze(
            """
            static class C
            {
                static IEnumerable<Event> Producer(Mailbox<int> b)
                {
                    b.Put(1);
                    b.Put(2);
                    yield break;
                }
            }
            """);

        Assert.Equal(2, diagnostics.Length);
        Assert.All(diagnostics, d => Assert.Equal("TI0002", d.Id));
        Assert.Equal(
            "'Mailbox.Put' creates an event that green-thread body 'Producer' never yields; yield return it, or the message is dropped when the mailbox is full",
            diagnostics[1].GetMessage(System.Globalization.CultureInfo.InvariantCulture));
    }

    [Fact]
    public void SubBodyCallsNotYielded_AreFlagged_ButCatchOnAKeptCallIsNot()
    {
        var diagnostics = Snippet.Analyze(
            """
            static class C
            {
                static IEnumerable<Event> Caller()
                {
                    Event.Call(Helper());
                    Event.Call<int>(Helper()).Catch();
                    var unread = Event.Call<int>(Helper());
                    var kept = Event.Call(Helper());
                    kept.Catch();
                    yield return kept;
                }

                static IEnumerable<Event> Helper()
                {
                    yield return Event.Return(1);
                }
            }
            """);

        Assert.Equal(3, diagnostics.Length);
        Assert.All(diagnostics, d => Assert.Equal("TI0002", d.Id));
        Assert.Equal(
            "'Event.Call' creates an event that green-thread body 'Caller' never yields; yield return it, or the sub-body never runs",
            diagnostics[0].GetMessage(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Contains("'Event.Call' creates", diagnostics[1].GetMessage(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
        Assert.Contains("yield return 'unread', which is never read", diagnostics[2].GetMessage(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
    }

    [Fact]
    public void DiscardedEvents_OfEveryKind_AreFlagged()
    {
        Snippet.Verify(
            """
            static class C
            {
                static IEnumerable<Event> Body(
                    Mailbox<int> inbox, SharedMailbox<int> shared, Router<int> router, IMessageTarget<int> target,
                    CreditWindow window, PullSource<int> source, Puller<int> puller, Task task, Task<int> typed, GreenThread child,
                    CancellationToken token)
                {
                    inbox.Recv(); // TI0002
                    inbox.Put(1); // TI0002
                    shared.Put(1); // TI0002
                    shared.CreateReceiveEvent(); // TI0002
                    router.Put(1); // TI0002
                    target.Put(1); // TI0002
                    Event.Sleep(TimeSpan.FromMilliseconds(5)); // TI0002
                    TaskEvent.RunBlocking(() => File.ReadAllText("x")); // TI0002
                    Event.WhenCanceled(token); // TI0002
                    window.Acquire(); // TI0002
                    source.Offer(1); // TI0002
                    source.Complete(); // TI0002
                    puller.Next(); // TI0002
                    task.AsEvent(); // TI0002
                    typed.AsEvent(); // TI0002
                    new TaskEvent(); // TI0002
                    inbox?.Put(2); // TI0002
                    yield return child.Exited;
                }
            }
            """,
            ("TI0002", "Mailbox.Recv", "Body"),
            ("TI0002", "Mailbox.Put", "Body"),
            ("TI0002", "SharedMailbox.Put", "Body"),
            ("TI0002", "SharedMailbox.CreateReceiveEvent", "Body"),
            ("TI0002", "Router.Put", "Body"),
            ("TI0002", "IMessageTarget.Put", "Body"),
            ("TI0002", "Event.Sleep", "Body"),
            ("TI0002", "TaskEvent.RunBlocking", "Body"),
            ("TI0002", "Event.WhenCanceled", "Body"),
            ("TI0002", "CreditWindow.Acquire", "Body"),
            ("TI0002", "PullSource.Offer", "Body"),
            ("TI0002", "PullSource.Complete", "Body"),
            ("TI0002", "Puller.Next", "Body"),
            ("TI0002", "TaskEventExtensions.AsEvent", "Body"),
            ("TI0002", "TaskEventExtensions.AsEvent", "Body"),
            ("TI0002", "new TaskEvent", "Body"),
            ("TI0002", "Mailbox.Put", "Body"));
    }

    [Fact]
    public void LocalNeverRead_IsFlagged_AndNamed()
    {
        var source =
            """
            static class C
            {
                static IEnumerable<Event> Body(Mailbox<int> box)
                {
                    var put = box.Put(1); // TI0002
                    Event later;
                    later = box.Put(2); // TI0002
                    later = box.Put(3); // TI0002
                    yield break;
                }
            }
            """;
        Snippet.Verify(source, ("TI0002", "Mailbox.Put", "Body"), ("TI0002", "Mailbox.Put", "Body"), ("TI0002", "Mailbox.Put", "Body"));

        var messages = Snippet.Analyze(source).Select(d => d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)).ToList();
        Assert.Contains("yield return 'put', which is never read", messages[0], StringComparison.Ordinal);
        Assert.Contains("yield return 'later', which is never read", messages[1], StringComparison.Ordinal);
    }

    [Fact]
    public void EventsYieldedStoredPassedOrReturned_AreNotFlagged()
    {
        Snippet.VerifyNone(
            """
            class C
            {
                private Event? _pending;
                private readonly List<Event> _events = new();

                IEnumerable<Event> Body(Mailbox<int> box, Task<int> task)
                {
                    yield return box.Put(1);
                    var put = box.Put(2);
                    yield return put;
                    Event assigned;
                    assigned = box.Put(3);
                    yield return assigned;
                    yield return assigned = box.Put(4);
                    _pending = box.Put(5);
                    _events.Add(box.Put(6));
                    Keep(box.Put(7));
                    var captured = box.Put(8);
                    Func<Event> later = () => captured;
                    _ = box.Put(9);
                    var read = new TaskEvent<int>();
                    read.For(task);
                    yield return read;
                    yield return Wrap(box);

                    // A method of another library that hands back the event it was given: nothing is created.
                    var put2 = box.Put(11);
                    Pass(put2);
                    yield return put2;
                }

                static T Pass<T>(T value) => value;

                static void Keep(Event e) { }

                static Event Wrap(Mailbox<int> box) => box.Put(10);
            }
            """);
    }

    [Fact]
    public void OutsideBodies_AndInsideLambdas_NothingIsFlagged()
    {
        Snippet.VerifyNone(
            """
            static class C
            {
                static void NotABody(Mailbox<int> box)
                {
                    box.Put(1);
                    var unused = box.Put(2);
                }

                static IEnumerable<Event> Body(Mailbox<int> box)
                {
                    Action callback = () => { box.Put(3); };
                    yield return Event.Yield;
                }

                static IEnumerable<int> NotOfEvents(Mailbox<int> box)
                {
                    box.Put(4);
                    yield return 1;
                }
            }
            """);
    }
}
