%% The chat server of samples/ChatServer, as an Erlang programmer would write it: gen_tcp with {active, once} and
%% {packet, line}, one process per connection and one per room, a registry process that keeps the rooms by name, the
%% same protocol (see samples/ChatServer/README.md) and the same limits: an idle timeout, lines of at most 4,096
%% bytes, and a client whose outbound backlog reaches the outbound capacity (lines waiting in its process's mailbox)
%% is dropped.
%%
%% erl -noshell +P 4194304 -pa BUILD_DIR -run chat_server main PORT [IDLE_MS [OUTBOUND_LINES [FAIL_ON]]]
%%
%% PORT 0 picks a free port. FAIL_ON, for tests of fault isolation, is a line that makes the connection that says it
%% crash, as the .NET servers' FailOn option does.
%%
%% Prints "erlang chat server on 127.0.0.1:PORT", then its counts each second they change; stops when its standard
%% input closes.
-module(chat_server).
-export([main/1, start/4]).

-define(MAX_LINE, 4096).

-record(opts, {idle_ms :: pos_integer(), outbound :: pos_integer(), fail_on :: binary(), counters :: counters:counters_ref(), registry :: pid() | undefined}).

%% The counters, in this order, as the .NET servers print them.
-define(CONNECTIONS, 1).
-define(ROOMS, 2).
-define(LINES_IN, 3).
-define(LINES_OUT, 4).
-define(DROPPED, 5).
-define(IDLE, 6).
-define(FAULTED, 7).

main([PortS]) -> main([PortS, "60000"]);
main([PortS, IdleMsS]) -> main([PortS, IdleMsS, "1024"]);
main([PortS, IdleMsS, OutboundS]) -> main([PortS, IdleMsS, OutboundS, ""]);
main([PortS, IdleMsS, OutboundS, FailOn]) ->
    start(list_to_integer(PortS), list_to_integer(IdleMsS), list_to_integer(OutboundS), list_to_binary(FailOn)).

start(Port, IdleMs, Outbound, FailOn) ->
    {ok, Listen} = gen_tcp:listen(Port, [binary, {packet, line}, {buffer, ?MAX_LINE + 2}, {active, false},
                                         {reuseaddr, true}, {backlog, 1024}, {nodelay, true}, {ip, {127, 0, 0, 1}}]),
    {ok, Actual} = inet:port(Listen),
    Counters = counters:new(7, [write_concurrency]),
    Opts0 = #opts{idle_ms = IdleMs, outbound = Outbound, fail_on = FailOn, counters = Counters},
    Registry = spawn(fun() -> registry(#{}, #{}, Opts0) end),
    Opts = Opts0#opts{registry = Registry},
    spawn(fun() -> accept(Listen, Opts, 1) end),
    io:format("erlang chat server on 127.0.0.1:~p~n", [Actual]),
    Printer = spawn(fun() -> print(Counters, "") end),
    wait_for_eof(),
    exit(Printer, kill),
    print_counts(Counters, ""),
    halt(0).

wait_for_eof() ->
    case io:get_line("") of
        eof -> ok;
        {error, _} -> ok;
        _ -> wait_for_eof()
    end.

print(Counters, Last) ->
    receive after 1000 -> ok end,
    print(Counters, print_counts(Counters, Last)).

print_counts(Counters, Last) ->
    [C, R, In, Out, D, I, F] = [counters:get(Counters, N) || N <- lists:seq(1, 7)],
    Line = io_lib:format("connections ~p, rooms ~p, lines in ~p, out ~p, dropped (slow) ~p, closed (idle) ~p, faulted ~p~n",
                         [C, R, In, Out, D, I, F]),
    Flat = lists:flatten(Line),
    case Flat =:= Last of
        true -> ok;
        false -> io:put_chars(Flat)
    end,
    Flat.

accept(Listen, Opts = #opts{registry = Registry}, Id) ->
    case gen_tcp:accept(Listen) of
        {ok, Socket} ->
            Pid = spawn(fun() -> receive {go, S} -> connection(S, Id, Opts) end end),
            ok = gen_tcp:controlling_process(Socket, Pid),
            Registry ! {opened, Pid},
            Pid ! {go, Socket},
            accept(Listen, Opts, Id + 1);
        {error, closed} ->
            ok;
        {error, _} ->
            accept(Listen, Opts, Id)
    end.

%% A connection: reads its lines with {active, once}, acts on each, and writes what it is told to say. The registry
%% monitors it: however it ends (a crash, or killed as a slow reader), it leaves its room and is counted.
connection(Socket, Id, Opts = #opts{counters = Counters}) ->
    IdBin = integer_to_binary(Id),
    say_now(Socket, [<<"/hello ">>, IdBin], Counters),
    ok = inet:setopts(Socket, [{active, once}]),
    loop(Socket, IdBin, none, deadline(Opts), Opts),
    %% As the .NET servers close: what was said is sent, then the end, rather than a reset.
    gen_tcp:shutdown(Socket, read_write),
    gen_tcp:close(Socket).

deadline(#opts{idle_ms = IdleMs}) -> erlang:monotonic_time(millisecond) + IdleMs.

loop(Socket, Id, Room, Deadline, Opts = #opts{counters = Counters}) ->
    Wait = max(0, Deadline - erlang:monotonic_time(millisecond)),
    receive
        {tcp, Socket, Data} ->
            counters:add(Counters, ?LINES_IN, 1),
            case line(Data) of
                too_long ->
                    say_now(Socket, [<<"/bye line longer than ">>, integer_to_binary(?MAX_LINE), <<" bytes">>], Counters);
                Line ->
                    case handle(Line, Socket, Id, Room, Opts) of
                        {continue, Room2} ->
                            ok = inet:setopts(Socket, [{active, once}]),
                            loop(Socket, Id, Room2, deadline(Opts), Opts);
                        stop ->
                            ok
                    end
            end;
        {say, Line} ->
            %% The lines waiting behind it go in the same send, as the .NET servers' writers gather theirs.
            {Lines, Count} = gather([Line, $\n], 1),
            case gen_tcp:send(Socket, Lines) of
                ok -> counters:add(Counters, ?LINES_OUT, Count);
                {error, _} -> ok
            end,
            loop(Socket, Id, Room, Deadline, Opts);
        {tcp_closed, Socket} ->
            ok;
        {tcp_error, Socket, _} ->
            ok
    after Wait ->
        counters:add(Counters, ?IDLE, 1),
        say_now(Socket, <<"/bye idle">>, Counters)
    end.

%% Takes the lines to say already in the mailbox, up to 64 in all, without waiting.
gather(Lines, 64) ->
    {Lines, 64};
gather(Lines, Count) ->
    receive
        {say, Line} -> gather([Lines, Line, $\n], Count + 1)
    after 0 ->
        {Lines, Count}
    end.

%% A whole line without its "\n" (and "\r"), or too_long: {packet, line} hands over a buffer's worth of a longer line.
line(Data) ->
    case binary:last(Data) of
        $\n ->
            Size = byte_size(Data),
            case Size >= 2 andalso binary:at(Data, Size - 2) =:= $\r of
                true -> binary:part(Data, 0, Size - 2);
                false -> binary:part(Data, 0, Size - 1)
            end;
        _ ->
            too_long
    end.

handle(FailOn, _Socket, _Id, _Room, #opts{fail_on = FailOn}) when FailOn =/= <<>> ->
    erlang:error(told_to_fail);
handle(<<"/join ", Name0/binary>>, Socket, Id, Room, Opts = #opts{registry = Registry}) ->
    case string:trim(Name0) of
        <<>> ->
            say_now(Socket, <<"/error unknown command; commands: /join ROOM, /leave, /quit">>, Opts#opts.counters),
            {continue, Room};
        Name ->
            leave(Room, Registry),
            Registry ! {join, Name, self(), Id},
            receive {room, RoomPid} -> {continue, {Name, RoomPid}} end
    end;
handle(<<"/leave">>, Socket, _Id, none, Opts) ->
    say_now(Socket, <<"/error not in a room">>, Opts#opts.counters),
    {continue, none};
handle(<<"/leave">>, _Socket, _Id, Room, #opts{registry = Registry}) ->
    leave(Room, Registry),
    {continue, none};
handle(<<"/quit">>, Socket, _Id, _Room, Opts) ->
    say_now(Socket, <<"/bye">>, Opts#opts.counters),
    stop;
handle(<<"/", _/binary>>, Socket, _Id, Room, Opts) ->
    say_now(Socket, <<"/error unknown command; commands: /join ROOM, /leave, /quit">>, Opts#opts.counters),
    {continue, Room};
handle(_Text, Socket, _Id, none, Opts) ->
    say_now(Socket, <<"/error join a room first: /join ROOM">>, Opts#opts.counters),
    {continue, none};
handle(Text, _Socket, Id, Room = {_Name, RoomPid}, _Opts) ->
    RoomPid ! {line, self(), [Id, $\s, Text]},
    {continue, Room}.

leave(none, _Registry) -> ok;
leave({Name, _RoomPid}, Registry) -> Registry ! {leave, Name, self()}.

say_now(Socket, Line, Counters) ->
    case gen_tcp:send(Socket, [Line, $\n]) of
        ok -> counters:add(Counters, ?LINES_OUT, 1);
        {error, _} -> ok
    end.

%% The rooms by name, each with its members, and the room of each connection. Monitors every connection, so one
%% that ends however it ends leaves its room, and is counted (a crash as a fault).
registry(Rooms, Where, Opts = #opts{counters = Counters}) ->
    receive
        {opened, Pid} ->
            erlang:monitor(process, Pid),
            counters:add(Counters, ?CONNECTIONS, 1),
            registry(Rooms, Where, Opts);
        {join, Name, Pid, Id} ->
            {RoomPid, Members} =
                case maps:find(Name, Rooms) of
                    {ok, Found} -> Found;
                    error ->
                        counters:add(Counters, ?ROOMS, 1),
                        {spawn(fun() -> room(Name, [], Opts) end), #{}}
                end,
            RoomPid ! {join, Pid, Id},
            Pid ! {room, RoomPid},
            registry(Rooms#{Name => {RoomPid, Members#{Pid => true}}}, Where#{Pid => Name}, Opts);
        {leave, Name, Pid} ->
            registry(remove(Name, Pid, Rooms, Counters, true), maps:remove(Pid, Where), Opts);
        {'DOWN', _, process, Pid, Reason} ->
            counters:sub(Counters, ?CONNECTIONS, 1),
            case Reason of
                normal -> ok;
                {shutdown, _} -> ok;
                _ ->
                    counters:add(Counters, ?FAULTED, 1),
                    io:format(standard_error, "a connection failed: ~p~n", [Reason])
            end,
            case maps:find(Pid, Where) of
                {ok, Name} -> registry(remove(Name, Pid, Rooms, Counters, false), maps:remove(Pid, Where), Opts);
                error -> registry(Rooms, Where, Opts)
            end
    end.

remove(Name, Pid, Rooms, Counters, Tell) ->
    case maps:find(Name, Rooms) of
        {ok, {RoomPid, Members}} when is_map_key(Pid, Members) ->
            RoomPid ! {leave, Pid, Tell},
            Left = maps:remove(Pid, Members),
            case map_size(Left) of
                0 ->
                    RoomPid ! stop,
                    counters:sub(Counters, ?ROOMS, 1),
                    maps:remove(Name, Rooms);
                _ ->
                    Rooms#{Name => {RoomPid, Left}}
            end;
        _ ->
            Rooms
    end.

%% A room: its members, and every line to every other member, in the order the room receives them. A member whose
%% mailbox holds the outbound capacity of lines not yet written has stopped reading: it is killed (its socket closes
%% with it), not waited for. Reading another process's queue length takes its lock, which cost seven times the
%% throughput when done for every line, so the room looks every ?LOOK_EVERY lines sent to a member: its backlog is
%% bounded by the capacity plus that many.
-define(LOOK_EVERY, 16).

room(Name, Members, Opts) ->
    receive
        {join, Pid, _Id} ->
            Pid ! {say, [<<"/joined ">>, Name]},
            room(Name, [{Pid, 0} | Members], Opts);
        {leave, Pid, Tell} ->
            case Tell of
                true -> Pid ! {say, [<<"/left ">>, Name]};
                false -> ok
            end,
            room(Name, lists:keydelete(Pid, 1, Members), Opts);
        {line, From, Line} ->
            Out = iolist_to_binary(Line),
            room(Name, [say(Member, From, Out, Opts) || Member <- Members], Opts);
        stop ->
            ok
    end.

say(Member = {From, _}, From, _Line, _Opts) ->
    Member;
say({Pid, Sent}, _From, Line, #opts{outbound = Outbound, counters = Counters}) when Sent rem ?LOOK_EVERY =:= 0 ->
    case erlang:process_info(Pid, message_queue_len) of
        {message_queue_len, Waiting} when Waiting >= Outbound ->
            exit(Pid, {shutdown, slow_reader}),
            counters:add(Counters, ?DROPPED, 1),
            {Pid, Sent + 1};
        _ ->
            Pid ! {say, Line},
            {Pid, Sent + 1}
    end;
say({Pid, Sent}, _From, Line, _Opts) ->
    Pid ! {say, Line},
    {Pid, Sent + 1}.
