%% Erlang distribution side of cluster-compare (benchmarks/ThreadIterators.Cluster.Benchmarks, ErlangContender.cs):
%% the same five workloads as the .NET contenders, across two BEAM nodes on loopback TCP.
%%
%% Node 1 is started by the .NET side as
%%   erl -noshell -name N1@127.0.0.1 -setcookie C -pa EBIN -run dist_bench main N2
%% It starts node 2 (N2@127.0.0.1) with OTP's peer module, spawns an echo and a sink there, prints "ready", then
%% reads one command a line from standard input and answers each with one line "dist_bench ok ..." or
%% "dist_bench error ..." (node-down answers "dist_bench armed" first, then one of those). Lines that do not start
%% with "dist_bench " (logger output) are not answers. It stops node 2 and halts when standard input closes.
%%
%%   info                 -> ok OsPidOfNode2 OtpVersion ErtsVersion Schedulers1 Schedulers2
%%   pingpong N           -> ok T1 .. TN        each round trip in nanoseconds (erlang:monotonic_time)
%%   stream N W           -> ok                 N messages to the sink on node 2, an ack asked (and waited for)
%%                                              every W-th message and on the last
%%   ring Size Laps       -> ok T               Size processes placed on node 1 and node 2 in turn, one token
%%                                              going round Laps times; T: nanoseconds from the token's first
%%                                              send to its return from the last lap (building the ring not counted)
%%   nodedown W Node3     -> armed, then ok T   W watchers on node 1 monitor the process registered as 'victim'
%%                                              on Node3; once armed, the .NET side kills Node3's OS process; T
%%                                              is os:system_time(nanosecond) when the last watcher got 'DOWN'
%%
%% Node 3 is started by the .NET side as
%%   erl -noshell -name N3@127.0.0.1 -setcookie C -pa EBIN -run dist_bench victim
%% and prints "ready" once its process is registered as 'victim'.
-module(dist_bench).
-export([main/1, victim/0, echo/0, sink/0, ring_member/1, watcher/3]).

%% How long any single wait for a message may take before the command fails instead of hanging.
-define(PATIENCE, 120000).
%% After the last watcher's 'DOWN', how long to wait before asking every watcher whether it heard a second one.
-define(GRACE, 100).

-spec main([string()]) -> no_return().
main([Name2]) ->
    try start(Name2) of
        {Peer, Node2, Echo, Sink} ->
            io:put_chars("ready\n"),
            loop(#{peer => Peer, node2 => Node2, echo => Echo, sink => Sink}),
            peer:stop(Peer),
            erlang:halt(0)
    catch
        Class:Reason ->
            answer(["error ", one_line(Class, Reason)]),
            erlang:halt(1)
    end.

start(Name2) ->
    Ebin = filename:dirname(code:which(?MODULE)),
    %% peer's control connection is standard_io rather than its default, the distribution: OTP 25's peer starts
    %% the node -detached for the latter, out of this node's process tree, where the .NET side's kill of the tree
    %% would miss it. With standard_io node 2 is a child of this node and halts when its standard input closes.
    %% The workloads' messages go over the distribution either way (the node has -name and the same cookie).
    {ok, Peer, Node2} = peer:start(#{name => list_to_atom(Name2),
                                     host => "127.0.0.1",
                                     longnames => true,
                                     connection => standard_io,
                                     args => ["-pa", Ebin, "-setcookie", atom_to_list(erlang:get_cookie())]}),
    Echo = spawn(Node2, ?MODULE, echo, []),
    Sink = spawn(Node2, ?MODULE, sink, []),
    {Peer, Node2, Echo, Sink}.

loop(State) ->
    case io:get_line("") of
        eof ->
            ok;
        {error, _} ->
            ok;
        Line ->
            flush(),
            try command(string:lexemes(Line, " \r\n"), State) of
                Text -> answer(["ok", Text])
            catch
                Class:Reason -> answer(["error ", one_line(Class, Reason)])
            end,
            loop(State)
    end.

command(["info"], #{node2 := Node2}) ->
    OsPid = rpc:call(Node2, os, getpid, []),
    Release = erlang:system_info(otp_release),
    OtpVersion = case file:read_file(filename:join([code:root_dir(), "releases", Release, "OTP_VERSION"])) of
                     {ok, Bytes} -> string:trim(binary_to_list(Bytes));
                     {error, _} -> Release
                 end,
    [" ", OsPid, " ", OtpVersion, " ", erlang:system_info(version),
     " ", integer_to_list(erlang:system_info(schedulers_online)),
     " ", integer_to_list(rpc:call(Node2, erlang, system_info, [schedulers_online]))];
command(["pingpong", N], #{echo := Echo}) ->
    [[" ", integer_to_list(T)] || T <- pingpong(Echo, 0, list_to_integer(N), [])];
command(["stream", N, W], #{sink := Sink}) ->
    stream(Sink, list_to_integer(N), list_to_integer(W)),
    [];
command(["ring", Size, Laps], #{node2 := Node2}) ->
    [" ", integer_to_list(ring(Node2, list_to_integer(Size), list_to_integer(Laps)))];
command(["nodedown", W, Node3], _State) ->
    [" ", integer_to_list(nodedown(list_to_integer(W), list_to_atom(Node3)))];
command(Other, _State) ->
    error({unknown_command, Other}).

answer(Text) ->
    io:put_chars(["dist_bench ", Text, "\n"]).

one_line(Class, Reason) ->
    Text = lists:flatten(io_lib:format("~p:~p", [Class, Reason])),
    [case C of $\n -> $\s; _ -> C end || C <- Text].

%% Drops what an earlier failed command may have left in the mailbox (a late ack, a late 'DOWN' report).
flush() ->
    receive
        _ -> flush()
    after 0 -> ok
    end.

%% Round trip: this process sends {ping, self(), I} to the echo on node 2 and waits for {pong, I}.
pingpong(_Echo, N, N, Times) ->
    lists:reverse(Times);
pingpong(Echo, I, N, Times) ->
    Start = erlang:monotonic_time(nanosecond),
    Echo ! {ping, self(), I},
    receive
        {pong, I} -> ok
    after ?PATIENCE -> error({no_pong, I})
    end,
    pingpong(Echo, I + 1, N, [erlang:monotonic_time(nanosecond) - Start | Times]).

-spec echo() -> no_return().
echo() ->
    receive
        {ping, From, I} -> From ! {pong, I}
    end,
    echo().

%% Stream: {item, I, AckTo} with AckTo = none, or this process on every W-th message and the last, when the
%% sender waits for the ack before it goes on. A reset with a fresh reference starts each stream; it and the items
%% come from the same process, so it arrives first.
stream(Sink, Count, Window) when Count > 0, Window > 0 ->
    Ref = make_ref(),
    Sink ! {reset, Ref},
    stream(Sink, Ref, 0, Count, Window).

stream(_Sink, _Ref, Count, Count, _Window) ->
    ok;
stream(Sink, Ref, I, Count, Window) ->
    case I rem Window =:= Window - 1 orelse I =:= Count - 1 of
        true ->
            Sink ! {item, I, self()},
            receive
                {ack, Ref, Received, InOrder} when InOrder, Received =:= I + 1 -> ok;
                {ack, Ref, Received, InOrder} -> error({stream_broken, I, Received, InOrder})
            after ?PATIENCE -> error({no_ack, I})
            end;
        false ->
            Sink ! {item, I, none}
    end,
    stream(Sink, Ref, I + 1, Count, Window).

%% The sink counts the items since the last reset and checks that each is the next one expected; an ack carries
%% the count and whether every item so far came in order, so a loss, a repeat or a reorder fails the stream.
-spec sink() -> no_return().
sink() ->
    sink(none, 0, true).

sink(Ref, Next, InOrder) ->
    receive
        {item, I, AckTo} ->
            StillInOrder = InOrder andalso I =:= Next,
            case AckTo of
                none -> ok;
                _ -> AckTo ! {ack, Ref, Next + 1, StillInOrder}
            end,
            sink(Ref, Next + 1, StillInOrder);
        {reset, NewRef} ->
            sink(NewRef, 0, true)
    end.

%% Ring: members 0, 2, 4, ... on this node, 1, 3, 5, ... on node 2, each forwarding {token, H - 1} to the next.
%% The token starts at member 0 with H = Size * Laps, so after Size * Laps hops it is back at member 0 holding 0.
%% Only the token's travel is timed.
%% Members are spawned with spawn_request, the remote ones all in flight at once, and then told their next.
ring(Node2, Size, Laps) when Size > 0, Laps > 0 ->
    Ref = make_ref(),
    Requests = [case I rem 2 of
                    0 -> {local, spawn(?MODULE, ring_member, [{self(), Ref}])};
                    1 -> {remote, spawn_request(Node2, ?MODULE, ring_member, [{self(), Ref}], [])}
                end
                || I <- lists:seq(0, Size - 1)],
    Members = [spawned(Request) || Request <- Requests],
    try
        [First | Rest] = Members,
        [Member ! {next, Next} || {Member, Next} <- lists:zip(Members, Rest ++ [First])],
        Start = erlang:monotonic_time(nanosecond),
        First ! {token, Size * Laps},
        receive
            {ring_done, Ref} -> erlang:monotonic_time(nanosecond) - Start
        after ?PATIENCE -> error(ring_timeout)
        end
    after
        [Member ! stop || Member <- Members]
    end.

spawned({local, Pid}) ->
    Pid;
spawned({remote, Request}) ->
    receive
        {spawn_reply, Request, ok, Pid} -> Pid;
        {spawn_reply, Request, error, Reason} -> error({spawn_failed, Reason})
    after ?PATIENCE -> error(spawn_timeout)
    end.

-spec ring_member({pid(), reference()}) -> ok.
ring_member(Done) ->
    receive
        {next, Next} -> ring_forward(Next, Done);
        stop -> ok
    end.

ring_forward(Next, {Coordinator, Ref} = Done) ->
    receive
        {token, 0} ->
            Coordinator ! {ring_done, Ref},
            ring_forward(Next, Done);
        {token, Hops} ->
            Next ! {token, Hops - 1},
            ring_forward(Next, Done);
        stop ->
            ok
    end.

%% Node-down: W watchers on this node each monitor the victim on Node3. Once all have called erlang:monitor/2,
%% "armed" goes out and the .NET side kills Node3's OS process; the kernel closes its TCP connection, and the
%% distribution delivers {'DOWN', _, process, _, noconnection} to every watcher. Returns the wall-clock time
%% (os:system_time, the same clock as .NET's DateTime.UtcNow) at which the last watcher got its 'DOWN'.
nodedown(Count, Node3) when Count > 0 ->
    true = net_kernel:connect_node(Node3),
    Victim = case rpc:call(Node3, erlang, whereis, [victim]) of
                 Pid when is_pid(Pid) -> Pid;
                 Other -> error({no_victim, Node3, Other})
             end,
    Ref = make_ref(),
    Watchers = [spawn(?MODULE, watcher, [self(), Ref, Victim]) || _ <- lists:seq(1, Count)],
    try
        [receive {armed, Ref, Watcher} -> ok after ?PATIENCE -> error(arm_timeout) end || Watcher <- Watchers],
        answer("armed"),
        Downs = [receive
                     {down, Ref, Watcher, Time, noconnection} -> Time;
                     {down, Ref, Watcher, _Time, Reason} -> error({unexpected_down_reason, Reason})
                 after ?PATIENCE -> error(down_timeout)
                 end
                 || Watcher <- Watchers],
        timer:sleep(?GRACE),
        [Watcher ! {check, self()} || Watcher <- Watchers],
        Twice = lists:sum([receive {checked, Ref, Watcher, Extra} -> Extra after ?PATIENCE -> error(check_timeout) end
                           || Watcher <- Watchers]),
        case Twice of
            0 -> lists:max(Downs);
            _ -> error({down_heard_twice, Twice})
        end
    after
        [exit(Watcher, kill) || Watcher <- Watchers]
    end.

-spec watcher(pid(), reference(), pid()) -> ok.
watcher(Coordinator, Ref, Victim) ->
    Monitor = erlang:monitor(process, Victim),
    Coordinator ! {armed, Ref, self()},
    receive
        {'DOWN', Monitor, process, _, Reason} ->
            Coordinator ! {down, Ref, self(), os:system_time(nanosecond), Reason},
            receive
                {check, Coordinator} -> Coordinator ! {checked, Ref, self(), more_downs(0)}
            end
    end,
    ok.

more_downs(Count) ->
    receive
        {'DOWN', _, process, _, _} -> more_downs(Count + 1)
    after 0 -> Count
    end.

%% Node 3: registers one idle process as 'victim', prints "ready", and halts when standard input closes (it is
%% normally killed first).
-spec victim() -> no_return().
victim() ->
    Victim = spawn(fun() -> receive stop -> ok end end),
    true = register(victim, Victim),
    io:put_chars("ready\n"),
    wait_for_eof().

wait_for_eof() ->
    case io:get_line("") of
        eof -> erlang:halt(0);
        {error, _} -> erlang:halt(0);
        _ -> wait_for_eof()
    end.
