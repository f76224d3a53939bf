%% Skynet: a root spawns 10 children, each of them 10 more, down to N leaves (N a power of ten; 1,111,111 nodes
%% for a million). Each leaf sends its ordinal to its parent; each parent sends the sum of its children's answers
%% to its own parent. The answer is N * (N - 1) div 2. As in Workloads/Skynet.cs, a root process spawns the top
%% node and waits for its sum.
-module(skynet).
-export([run/1]).

-define(FANOUT, 10).

-spec run(#{n := pos_integer(), _ => _}) -> non_neg_integer().
run(#{n := Leaves}) ->
    Parent = self(),
    Ref = make_ref(),
    spawn(fun() ->
                  Root = self(),
                  spawn(fun() -> node(0, Leaves, Root) end),
                  receive
                      Sum -> Parent ! {Ref, Sum}
                  end
          end),
    receive
        {Ref, Sum} -> Sum
    end.

node(Ordinal, 1, Parent) ->
    Parent ! Ordinal;
node(Ordinal, Size, Parent) ->
    ChildSize = Size div ?FANOUT,
    spawn_children(?FANOUT, Ordinal, ChildSize, self()),
    Parent ! sum_answers(?FANOUT, 0).

spawn_children(0, _Ordinal, _ChildSize, _Self) ->
    ok;
spawn_children(Left, Ordinal, ChildSize, Self) ->
    spawn(fun() -> node(Ordinal, ChildSize, Self) end),
    spawn_children(Left - 1, Ordinal + ChildSize, ChildSize, Self).

sum_answers(0, Sum) ->
    Sum;
sum_answers(Left, Sum) ->
    receive
        Answer -> sum_answers(Left - 1, Sum + Answer)
    end.
