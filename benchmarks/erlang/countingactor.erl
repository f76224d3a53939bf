%% CountingActor (Theron): one process receives M increments of one, then a request for the total, which it
%% answers to the sender. The result is the total, M. As in Workloads/CountingActor.cs there are two processes,
%% a sender and a counter; the run waits for the sender to get the answer.
%%
%% The C# request is the value 0 on the same long mailbox; here it is {get_count, From}, as an Erlang programmer
%% writes it.
-module(countingactor).
-export([run/1]).

-spec run(#{m := non_neg_integer(), _ => _}) -> non_neg_integer().
run(#{m := M}) ->
    Parent = self(),
    Ref = make_ref(),
    Counter = spawn(fun() -> counter(0) end),
    spawn(fun() -> sender(Counter, M, Parent, Ref) end),
    receive
        {Ref, Total} -> Total
    end.

counter(Count) ->
    receive
        Increment when is_integer(Increment) ->
            counter(Count + Increment);
        {get_count, From} ->
            From ! {count, Count}
    end.

sender(Counter, M, Parent, Ref) ->
    send_increments(Counter, M),
    Counter ! {get_count, self()},
    receive
        {count, Total} -> Parent ! {Ref, Total}
    end.

send_increments(_Counter, 0) ->
    ok;
send_increments(Counter, Left) ->
    Counter ! 1,
    send_increments(Counter, Left - 1).
