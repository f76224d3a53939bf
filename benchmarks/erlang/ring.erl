%% Ring: N forwarders in a line, a pump that sends M messages (0..M-1) and then a stop marker (-1), and a drain
%% that counts the messages until the marker, checking they arrive in order. N*M hops, pipelined. The forwarders
%% are spawned inside the timed run, as in the C# workload (Workloads/Ring.cs, samples/Ring/RingBenchmark.cs).
%% The result is the drain's count, M, or -1 if a message arrived out of order.
-module(ring).
-export([run/1]).

-define(STOP, -1).

-spec run(#{n := non_neg_integer(), m := non_neg_integer(), _ => _}) -> integer().
run(#{n := N, m := M}) ->
    Parent = self(),
    Ref = make_ref(),
    %% A forwarder needs the pid of the next one, so the line is built from the drain backwards.
    Drain = spawn(fun() -> drain(Parent, Ref, 0) end),
    First = spawn_forwarders(N, Drain),
    spawn(fun() -> pump(0, M, First) end),
    receive
        {Ref, Count} -> Count
    end.

spawn_forwarders(0, Next) ->
    Next;
spawn_forwarders(I, Next) ->
    spawn_forwarders(I - 1, spawn(fun() -> forward(Next) end)).

forward(Next) ->
    receive
        ?STOP ->
            Next ! ?STOP;
        Message ->
            Next ! Message,
            forward(Next)
    end.

pump(M, M, Next) ->
    Next ! ?STOP;
pump(I, M, Next) ->
    Next ! I,
    pump(I + 1, M, Next).

%% Messages from the one pump must arrive in order: the next one expected is Count.
drain(Parent, Ref, Count) ->
    receive
        ?STOP ->
            Parent ! {Ref, Count};
        Count ->
            drain(Parent, Ref, Count + 1);
        _OutOfOrder ->
            drain_out_of_order(Parent, Ref)
    end.

drain_out_of_order(Parent, Ref) ->
    receive
        ?STOP ->
            Parent ! {Ref, -1};
        _ ->
            drain_out_of_order(Parent, Ref)
    end.
