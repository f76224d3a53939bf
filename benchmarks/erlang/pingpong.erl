%% PingPong (Theron): two processes bounce a counter, each decrementing it before sending it back. The counter
%% starts at M, so M messages are sent (M, M-1, ..., 1) and the last one carries 1, which is the result. As in
%% Workloads/PingPong.cs, the serving player sends M and then receives M div 2 times, the other receives
%% (M + 1) div 2 times; each answers every ball with the ball minus one, except a final 1.
-module(pingpong).
-export([run/1]).

-spec run(#{m := non_neg_integer(), _ => _}) -> 0 | 1.
run(#{m := M}) ->
    Parent = self(),
    Ref = make_ref(),
    Ping = spawn(fun() ->
                         receive
                             {peer, Pong} ->
                                 Pong ! M,
                                 play(Pong, M div 2, Parent, Ref, 0)
                         end
                 end),
    Pong = spawn(fun() -> play(Ping, (M + 1) div 2, Parent, Ref, 0) end),
    Ping ! {peer, Pong},
    receive
        {Ref, Last1} ->
            receive
                {Ref, Last2} -> max(Last1, Last2)
            end
    end.

%% Last is 1 once this player has received the final ball, else 0.
play(_Peer, 0, Parent, Ref, Last) ->
    Parent ! {Ref, Last};
play(Peer, Receives, Parent, Ref, Last) ->
    receive
        1 ->
            play(Peer, Receives - 1, Parent, Ref, 1);
        Ball ->
            Peer ! Ball - 1,
            play(Peer, Receives - 1, Parent, Ref, Last)
    end.
