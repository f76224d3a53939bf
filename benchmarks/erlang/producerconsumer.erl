%% ProducerConsumer (Theron): two producers send M div 2 messages each to one consumer. Each message carries its
%% producer and sequence number; the consumer checks that every producer's messages arrive in order. The result is
%% the number received in order, 2 * (M div 2). See Workloads/ProducerConsumer.cs.
%%
%% The message is the same single word as the C# one, (Producer bsl 48) bor Sequence, a small integer that is
%% sent without being copied to the consumer's heap.
-module(producerconsumer).
-export([run/1]).

-define(PRODUCERS, 2).
-define(SHIFT, 48).
-define(SEQUENCE_MASK, 16#FFFFFFFFFFFF).

-spec run(#{m := non_neg_integer(), _ => _}) -> non_neg_integer().
run(#{m := M}) ->
    Parent = self(),
    Ref = make_ref(),
    Each = M div ?PRODUCERS,
    Consumer = spawn(fun() -> Parent ! {Ref, consume(?PRODUCERS * Each, 0, 0, 0)} end),
    lists:foreach(fun(Producer) -> spawn(fun() -> produce(Consumer, Producer bsl ?SHIFT, 0, Each) end) end,
                  lists:seq(0, ?PRODUCERS - 1)),
    receive
        {Ref, InOrder} -> InOrder
    end.

produce(_Consumer, _Tag, Count, Count) ->
    ok;
produce(Consumer, Tag, Sequence, Count) ->
    Consumer ! Tag bor Sequence,
    produce(Consumer, Tag, Sequence + 1, Count).

%% Next0 and Next1 are the sequence numbers expected next from producers 0 and 1.
consume(0, _Next0, _Next1, InOrder) ->
    InOrder;
consume(Left, Next0, Next1, InOrder) ->
    receive
        Message ->
            Sequence = Message band ?SEQUENCE_MASK,
            case Message bsr ?SHIFT of
                0 -> consume(Left - 1, Next0 + 1, Next1, InOrder + in_order(Sequence, Next0));
                1 -> consume(Left - 1, Next0, Next1 + 1, InOrder + in_order(Sequence, Next1))
            end
    end.

in_order(Expected, Expected) -> 1;
in_order(_, _) -> 0.
