using System.Threading.Tasks;
using ThreadIterators.Benchmarks.ChatComparison;

namespace ThreadIterators.Tests;

/// <summary>The Erlang chat server against the same protocol tests as the .NET servers (it needs erl: see <see cref="ErlangFixture"/>).</summary>
public sealed class ErlangChatServerTests(ErlangFixture erlang) : IClassFixture<ErlangFixture>
{
    [Fact]
    public Task RoomsOfTen_EveryLineReachesEveryOtherMemberOnce_InEachSendersOrder() =>
        ChatProtocol.RoomsOfTen_EveryLineReachesEveryOtherMemberOnce_InEachSendersOrder(o => ChatServerProcess.Erlang(erlang.Runtime, o), ChatProtocol.Options());

    [Fact]
    public Task IdleConnection_IsToldAndClosedAfterTheTimeout() =>
        ChatProtocol.IdleConnection_IsToldAndClosedAfterTheTimeout(o => ChatServerProcess.Erlang(erlang.Runtime, o), ChatProtocol.Options());

    [Fact]
    public Task ClientThatStopsReading_IsDropped_OthersGetEveryLine_InOrder() =>
        ChatProtocol.ClientThatStopsReading_IsDropped_OthersGetEveryLine_InOrder(o => ChatServerProcess.Erlang(erlang.Runtime, o), ChatProtocol.Options());

    [Fact]
    public Task ClientThatVanishesMidLine_EndsAlone_ItsHalfLineGoesNowhere() =>
        ChatProtocol.ClientThatVanishesMidLine_EndsAlone_ItsHalfLineGoesNowhere(o => ChatServerProcess.Erlang(erlang.Runtime, o), ChatProtocol.Options());

    [Fact]
    public Task ConnectionWhoseCodeFails_EndsAlone_TheRoomGoesOn() =>
        ChatProtocol.ConnectionWhoseCodeFails_EndsAlone_TheRoomGoesOn(o => ChatServerProcess.Erlang(erlang.Runtime, o), ChatProtocol.Options());

    [Fact]
    public Task Dispose_ClosesEveryConnection() =>
        ChatProtocol.Dispose_ClosesEveryConnection(o => ChatServerProcess.Erlang(erlang.Runtime, o), ChatProtocol.Options());
}
