using System;
using System.Collections.Generic;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Printed names of generic mailboxes and their kin: the message type is written as C# writes it, generic arguments
/// and all, where <c>Type.Name</c> printed <c>ReplyTo`1</c>.
/// </summary>
public sealed class TypeNamesTests
{
    [Fact]
    public void Mailbox_OfAGenericMessage_PrintsItsArguments()
    {
        Assert.Equal("Mailbox<ReplyTo<Int32>>", new Mailbox<ReplyTo<int>>().ToString());
        Assert.Equal("Mailbox<ReplyTo<List<Int32>>> 'asks'", new Mailbox<ReplyTo<List<int>>>("asks").ToString());
        Assert.Equal(
            "SharedMailbox<Dictionary<String, ReplyTo<Int32[]>>> 'work'",
            new SharedMailbox<Dictionary<string, ReplyTo<int[]>>>("work").ToString());
        Assert.Equal("PullSource<KeyValuePair<Int32, String>>", new PullSource<KeyValuePair<int, string>>().ToString());
    }

    [Fact]
    public void Mailbox_OfAPlainMessage_PrintsAsBefore()
    {
        Assert.Equal("Mailbox<Int32> 'orders'", new Mailbox<int>("orders").ToString());
        Assert.Equal("Mailbox<String>", new Mailbox<string>().ToString());
    }

    [Fact]
    public void Format_ArraysNullablesAndNestedTypes_AsCSharpWritesThem()
    {
        Assert.Equal("Int32[]", TypeNames.Format(typeof(int[])));
        Assert.Equal("Int32[,]", TypeNames.Format(typeof(int[,])));
        Assert.Equal("Int32[][]", TypeNames.Format(typeof(int[][])));
        Assert.Equal("Int32?", TypeNames.Format(typeof(int?)));
        Assert.Equal("List<Int64?[]>", TypeNames.Format(typeof(List<long?[]>)));
        Assert.Equal("Enumerator", TypeNames.Format(typeof(List<int>.Enumerator)));
        Assert.Equal("List<T>", TypeNames.Format(typeof(List<>)));
        Assert.Equal("Dictionary<String, Int32>", TypeNames.Of<Dictionary<string, int>>());
        Assert.Same(TypeNames.Of<ReplyTo<int>>(), TypeNames.Of<ReplyTo<int>>());
    }
}
