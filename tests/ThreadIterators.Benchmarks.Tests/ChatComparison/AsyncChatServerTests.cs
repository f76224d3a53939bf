using System.Threading.Tasks;
using ThreadIterators.Benchmarks.ChatComparison;

namespace ThreadIterators.Tests;

/// <summary>The async/await chat server against the same protocol tests as the green-thread sample.</summary>
public sealed class AsyncChatServerTests
{
    [Fact]
    public Task RoomsOfTen_EveryLineReachesEveryOtherMemberOnce_InEachSendersOrder() =>
        ChatProtocol.RoomsOfTen_EveryLineReachesEveryOtherMemberOnce_InEachSendersOrder(o => new AsyncChatServer(o), ChatProtocol.Options());

    [Fact]
    public Task IdleConnection_IsToldAndClosedAfterTheTimeout() =>
        ChatProtocol.IdleConnection_IsToldAndClosedAfterTheTimeout(o => new AsyncChatServer(o), ChatProtocol.Options());

    [Fact]
    public Task ClientThatStopsReading_IsDropped_OthersGetEveryLine_InOrder() =>
        ChatProtocol.ClientThatStopsReading_IsDropped_OthersGetEveryLine_InOrder(o => new AsyncChatServer(o), ChatProtocol.Options());

    [Fact]
    public Task ClientThatVanishesMidLine_EndsAlone_ItsHalfLineGoesNowhere() =>
        ChatProtocol.ClientThatVanishesMidLine_EndsAlone_ItsHalfLineGoesNowhere(o => new AsyncChatServer(o), ChatProtocol.Options());

    [Fact]
    public Task ConnectionWhoseCodeFails_EndsAlone_TheRoomGoesOn() =>
        ChatProtocol.ConnectionWhoseCodeFails_EndsAlone_TheRoomGoesOn(o => new AsyncChatServer(o), ChatProtocol.Options());

    [Fact]
    public Task Dispose_ClosesEveryConnection() =>
        ChatProtocol.Dispose_ClosesEveryConnection(o => new AsyncChatServer(o), ChatProtocol.Options());
}
