%% Footprint: what a parked process costs. Spawns N processes, each blocked in its own receive on an empty
%% mailbox (as samples/Footprint parks N green threads, each on its own empty mailbox), waits until every one of
%% them is actually waiting, and measures the memory the processes hold. Then it sends each one a message and
%% counts the ones that received it.
%%
%% Memory is erlang:memory(processes), read after a garbage collection of the measuring process, less that
%% process's own memory: the measuring process holds the list of N pids, bookkeeping that the C# sample keeps
%% in an array allocated before its first reading, so it is left out here too.
-module(footprint).
-export([run/1]).

%% How long the count of received messages waits for the next one before giving up.
-define(RECEIVE_TIMEOUT_MS, 60000).

-spec run(pos_integer()) -> #{atom() => integer()}.
run(Threads) ->
    Parent = self(),
    Before = processes_memory(),
    Pids = spawn_parked(Threads, Parent, []),
    wait_until_parked(Pids),
    After = processes_memory(),
    lists:foreach(fun(Pid) -> Pid ! 1 end, Pids),
    Received = count_received(Threads, 0),
    #{threads => Threads, memory_before_bytes => Before, memory_after_bytes => After, received => Received}.

spawn_parked(0, _Parent, Pids) ->
    Pids;
spawn_parked(Left, Parent, Pids) ->
    Pid = spawn(fun() ->
                        receive
                            Value -> Parent ! {received, Value}
                        end
                end),
    spawn_parked(Left - 1, Parent, [Pid | Pids]).

%% A process not yet scheduled is runnable; once it has run to its receive it is waiting.
wait_until_parked(Pids) ->
    case lists:all(fun(Pid) -> erlang:process_info(Pid, status) =:= {status, waiting} end, Pids) of
        true ->
            ok;
        false ->
            timer:sleep(10),
            wait_until_parked(Pids)
    end.

processes_memory() ->
    erlang:garbage_collect(),
    {memory, Own} = erlang:process_info(self(), memory),
    erlang:memory(processes) - Own.

count_received(0, Received) ->
    Received;
count_received(Left, Received) ->
    receive
        {received, Value} -> count_received(Left - 1, Received + Value)
    after ?RECEIVE_TIMEOUT_MS ->
        Received
    end.
