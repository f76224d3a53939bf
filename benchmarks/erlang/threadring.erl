%% ThreadRing (Theron, Benchmarks Game): 503 processes in a ring pass one token H times; each holder decrements
%% it, and the holder that receives 0 is the answer, H rem 503 + 1. Then a stop marker (-1) goes round once, as
%% in Workloads/ThreadRing.cs: the winner sends it on, every other member forwards it once and ends.
%%
%% The C# run ends when every member has ended; the last send of the stop marker goes into the winner's mailbox,
%% which nobody reads. Here the winner waits for that marker to come back and then reports, so the run ends at
%% the same point and sends the same messages.
-module(threadring).
-export([run/1]).

-define(SIZE, 503).
-define(STOP, -1).

-spec run(#{hops := non_neg_integer(), _ => _}) -> pos_integer().
run(#{hops := Hops}) ->
    Parent = self(),
    Ref = make_ref(),
    %% Member 1 learns its successor once the others exist; 503 is spawned first with member 1 as its successor.
    First = spawn(fun() ->
                          receive
                              {next, Next} -> member(1, Next, Parent, Ref)
                          end
                  end),
    Second = lists:foldl(fun(Id, Next) -> spawn(fun() -> member(Id, Next, Parent, Ref) end) end,
                         First, lists:seq(?SIZE, 2, -1)),
    First ! {next, Second},
    First ! Hops,
    receive
        {Ref, Winner} -> Winner
    end.

member(Id, Next, Parent, Ref) ->
    receive
        Token when Token > 0 ->
            Next ! Token - 1,
            member(Id, Next, Parent, Ref);
        0 ->
            %% The winner starts the stop marker's round.
            Next ! ?STOP,
            receive
                ?STOP -> Parent ! {Ref, Id}
            end;
        ?STOP ->
            Next ! ?STOP
    end.
