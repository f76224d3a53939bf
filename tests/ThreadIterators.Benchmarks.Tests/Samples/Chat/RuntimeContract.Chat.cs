using System.Threading.Tasks;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Tests;

/// <summary>The chat server sample (green threads) against the chat protocol's tests, under every configuration.</summary>
public abstract partial class RuntimeContract
{
    [Fact]
    public Task Chat_RoomsOfTen_EveryLineReachesEveryOtherMemberOnce_InEachSendersOrder() =>
        ChatProtocol.RoomsOfTen_EveryLineReachesEveryOtherMemberOnce_InEachSendersOrder(o => new ChatServer(o), ChatProtocol.Options(WorkerCount, Policy));

    [Fact]
    public Task Chat_IdleConnection_IsToldAndClosedAfterTheTimeout() =>
        ChatProtocol.IdleConnection_IsToldAndClosedAfterTheTimeout(o => new ChatServer(o), ChatProtocol.Options(WorkerCount, Policy));

    [Fact]
    public Task Chat_ClientThatStopsReading_IsDropped_OthersGetEveryLine_InOrder() =>
        ChatProtocol.ClientThatStopsReading_IsDropped_OthersGetEveryLine_InOrder(o => new ChatServer(o), ChatProtocol.Options(WorkerCount, Policy));

    [Fact]
    public Task Chat_ClientThatVanishesMidLine_EndsAlone_ItsHalfLineGoesNowhere() =>
        ChatProtocol.ClientThatVanishesMidLine_EndsAlone_ItsHalfLineGoesNowhere(o => new ChatServer(o), ChatProtocol.Options(WorkerCount, Policy));

    [Fact]
    public Task Chat_ConnectionWhoseCodeFails_EndsAlone_TheRoomGoesOn() =>
        ChatProtocol.ConnectionWhoseCodeFails_EndsAlone_TheRoomGoesOn(o => new ChatServer(o), ChatProtocol.Options(WorkerCount, Policy));

    [Fact]
    public Task Chat_Dispose_ClosesEveryConnection() =>
        ChatProtocol.Dispose_ClosesEveryConnection(o => new ChatServer(o), ChatProtocol.Options(WorkerCount, Policy));
}
