%% ParallelThreadRing (Theron): the 503-process ring with 503 tokens in flight at once, one starting at each
%% member, the hops split equally (H div 503 each). A token that has made its hops retires; when the last one
%% retires, a stop marker (-1) goes round. Each member counts the hops it made and adds them to the total as it
%% ends. The result is the number of hops made, 503 * (H div 503). See Workloads/ParallelThreadRing.cs.
%%
%% The C# members share two counters (tokens retired, hops made) updated with interlocked operations. Erlang
%% processes share nothing, so the run's own process keeps them: a member where a token retires tells it; after
%% the 503rd retirement it sends the stop marker to that member, which (as in C#) passes it on and ends; every
%% member reports its hops as it ends.
-module(parallelthreadring).
-export([run/1]).

-define(SIZE, 503).
-define(STOP, -1).

-spec run(#{hops := non_neg_integer(), _ => _}) -> non_neg_integer().
run(#{hops := Hops}) ->
    Coordinator = self(),
    Ref = make_ref(),
    First = spawn(fun() ->
                          receive
                              {next, Next} -> member(Next, Coordinator, Ref, 0)
                          end
                  end),
    %% Members 503, 502, ..., 2, each spawned with its successor: the list ends up in ring order, 2 .. 503, 1.
    [Second | _] = FromSecond = lists:foldl(fun(_, [Next | _] = Spawned) ->
                                                    [spawn(fun() -> member(Next, Coordinator, Ref, 0) end) | Spawned]
                                            end,
                                            [First], lists:seq(?SIZE, 2, -1)),
    First ! {next, Second},
    Each = Hops div ?SIZE,
    lists:foreach(fun(Member) -> Member ! Each end, FromSecond),
    await_retirements(?SIZE, Ref),
    sum_hops(?SIZE, Ref, 0).

member(Next, Coordinator, Ref, Hops) ->
    receive
        Token when Token > 0 ->
            Next ! Token - 1,
            member(Next, Coordinator, Ref, Hops + 1);
        0 ->
            Coordinator ! {Ref, retired, self()},
            member(Next, Coordinator, Ref, Hops);
        ?STOP ->
            Coordinator ! {Ref, hops, Hops},
            Next ! ?STOP
    end.

%% The member where the last token retired starts the stop marker.
await_retirements(Left, Ref) ->
    receive
        {Ref, retired, Member} when Left =:= 1 ->
            Member ! ?STOP;
        {Ref, retired, _} ->
            await_retirements(Left - 1, Ref)
    end.

sum_hops(0, _Ref, Total) ->
    Total;
sum_hops(Left, Ref, Total) ->
    receive
        {Ref, hops, Hops} -> sum_hops(Left - 1, Ref, Total + Hops)
    end.
