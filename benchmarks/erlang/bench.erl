%% The Erlang side of the quick runner (benchmarks/ThreadIterators.Benchmarks/QuickRunner):
%%
%%   erl -noshell +S W:W +P P -pa DIR -run bench main WORKLOAD [--n N] [--m M] [--hops H] [--runs R]
%%
%% WORKLOAD is ring, threadring, parallelthreadring, pingpong, countingactor, producerconsumer or skynet (sizes
%% and defaults as in QuickRunner/Catalogue.cs), or footprint (--n parked processes). Like Runner.Measure, it
%% warms up at a tenth of the size (for at least one run and half a second), then makes R measured runs (default
%% 3) and prints one JSON line per run and one for the median, with the fields of the C# runner's --json output.
%% It halts with 0 if every run computed the expected result, 1 if any did not, 2 on a bad command line and 3 if
%% anything crashed.
-module(bench).
-export([main/0, main/1]).
%% The logger handler that turns any error report (a crashed process) into a halt.
-export([log/2]).

-define(RING_SIZE, 503).
-define(WARM_UP_MS, 500).
-define(DEFAULT_RUNS, 3).
-define(DEFAULT_FOOTPRINT_THREADS, 1000000).

-define(USAGE,
        "usage: erl -noshell +S W:W [+P P] -pa DIR -run bench main\n"
        "           ring|threadring|parallelthreadring|pingpong|countingactor|producerconsumer|skynet|footprint\n"
        "           [--n N] [--m M] [--hops H] [--runs R]\n"
        "  ring: --n forwarders, --m messages; threadring, parallelthreadring: --hops; pingpong, countingactor,\n"
        "  producerconsumer: --m messages; skynet: --n leaves (a power of ten); footprint: --n parked processes.\n"
        "  Workers are the schedulers online (+S W:W).").

%% `-run bench main` with no workload calls main/0.
-spec main() -> no_return().
main() ->
    main([]).

-spec main([string()]) -> no_return().
main(Args) ->
    try
        watch_for_crashes(),
        Status = case parse(Args ++ double_dash_flags()) of
                     {ok, Command} -> execute(Command);
                     {error, Message} ->
                         io:format(standard_error, "~ts~n~ts~n", [Message, ?USAGE]),
                         2
                 end,
        erlang:halt(Status)
    catch
        Class:Reason:Stack ->
            io:format(standard_error, "bench crashed: ~p:~p~n~p~n", [Class, Reason, Stack]),
            erlang:halt(3)
    end.

%% ---------------------------------------------------------------------------------------------------------------
%% The catalogue: defaults, description, messages and expected result of each workload (QuickRunner/Catalogue.cs).

workloads() ->
    [ring, threadring, parallelthreadring, pingpong, countingactor, producerconsumer, skynet, footprint].

defaults(ring) -> #{n => 10000, m => 1000, hops => 0};
defaults(threadring) -> #{n => 0, m => 0, hops => 10000000};
defaults(parallelthreadring) -> #{n => 0, m => 0, hops => ?RING_SIZE * 20000};
defaults(pingpong) -> #{n => 0, m => 10000000, hops => 0};
defaults(countingactor) -> #{n => 0, m => 50000000, hops => 0};
defaults(producerconsumer) -> #{n => 0, m => 50000000, hops => 0};
defaults(skynet) -> #{n => 1000000, m => 0, hops => 0};
defaults(footprint) -> #{n => ?DEFAULT_FOOTPRINT_THREADS, m => 0, hops => 0}.

describe(ring, #{n := N, m := M}) -> io_lib:format("n=~b m=~b", [N, M]);
describe(threadring, #{hops := H}) -> io_lib:format("hops=~b", [H]);
describe(parallelthreadring, #{hops := H}) -> io_lib:format("hops=~b", [parallel_hops(H)]);
describe(skynet, #{n := N}) -> io_lib:format("leaves=~b", [N]);
describe(_, #{m := M}) -> io_lib:format("m=~b", [M]).

messages(ring, #{n := N, m := M}) -> N * M;
messages(threadring, #{hops := H}) -> H;
messages(parallelthreadring, #{hops := H}) -> parallel_hops(H);
messages(skynet, #{n := N}) -> skynet_processes(N);
messages(_, #{m := M}) -> M.

expected(ring, #{m := M}) -> M;
expected(threadring, #{hops := H}) -> H rem ?RING_SIZE + 1;
expected(parallelthreadring, #{hops := H}) -> parallel_hops(H);
expected(pingpong, _) -> 1;
expected(countingactor, #{m := M}) -> M;
expected(producerconsumer, #{m := M}) -> 2 * (M div 2);
expected(skynet, #{n := N}) -> N * (N - 1) div 2.

parallel_hops(Hops) -> ?RING_SIZE * (Hops div ?RING_SIZE).

%% Processes spawned below the root for Leaves leaves: Leaves + Leaves/10 + ... + 1 (Skynet.Threads).
skynet_processes(0) -> 0;
skynet_processes(Level) -> Level + skynet_processes(Level div 10).

power_of_ten(1) -> true;
power_of_ten(N) when N rem 10 =:= 0 -> power_of_ten(N div 10);
power_of_ten(_) -> false.

%% ---------------------------------------------------------------------------------------------------------------
%% The command line (QuickRunner/CommandLine.cs, less what only the C# side has: --workers is +S here, and the
%% output is always JSON, so --json is accepted and changes nothing).

parse(Args) ->
    parse(strip_run(Args), #{workload => undefined, sizes => #{}, runs => ?DEFAULT_RUNS}).

%% erl takes every argument that starts with a hyphen as a flag of its own, so `-run bench main ring --n 10`
%% passes only ["ring"] to main/1 and keeps --n 10 as the init flag '-n' with the value "10". The options are
%% read back from there, in their order on the command line.
double_dash_flags() ->
    [Argument || {Flag, Values} <- init:get_arguments(),
                 [$- | _] = Name <- [atom_to_list(Flag)],
                 Argument <- ["-" ++ Name | Values]].

strip_run(["run" | Args]) -> Args;
strip_run(Args) -> Args.

parse([], #{workload := undefined}) ->
    {error, "no workload named."};
parse([], #{workload := Workload, sizes := Given, runs := Runs} = Command) ->
    Sizes = maps:merge(defaults(Workload), Given),
    case Workload =:= skynet andalso not power_of_ten(maps:get(n, Sizes)) of
        true -> {error, "skynet: --n must be a power of ten."};
        false -> {ok, Command#{sizes := Sizes, runs := Runs}}
    end;
parse(["--json" | Rest], Command) ->
    parse(Rest, Command);
parse([Option | Rest], Command) when Option =:= "--n"; Option =:= "--m"; Option =:= "--hops"; Option =:= "--runs" ->
    case Rest of
        [Value | Rest1] ->
            case positive_integer(Value) of
                {ok, Number} -> parse(Rest1, set_option(Option, Number, Command));
                error -> {error, Option ++ " needs a positive whole number."}
            end;
        [] ->
            {error, Option ++ " needs a positive whole number."}
    end;
parse(["-" ++ _ = Option | _], _Command) ->
    {error, "unknown argument '" ++ Option ++ "'."};
parse([Name | Rest], #{workload := undefined} = Command) ->
    case [W || W <- workloads(), atom_to_list(W) =:= string:lowercase(Name)] of
        [Workload] -> parse(Rest, Command#{workload := Workload});
        [] -> {error, "unknown workload '" ++ Name ++ "'."}
    end;
parse([Argument | _], _Command) ->
    {error, "unknown argument '" ++ Argument ++ "'."}.

set_option("--runs", Runs, Command) -> Command#{runs := Runs};
set_option(Option, Value, #{sizes := Sizes} = Command) ->
    Key = list_to_atom(tl(tl(Option))),
    Command#{sizes := Sizes#{Key => Value}}.

positive_integer(Text) ->
    try list_to_integer(Text) of
        Number when Number >= 1 -> {ok, Number};
        _ -> error
    catch
        error:badarg -> error
    end.

%% ---------------------------------------------------------------------------------------------------------------
%% Running and measuring (QuickRunner/Runner.cs and Measurement.cs).

execute(#{workload := footprint, sizes := #{n := Threads}}) ->
    Footprint = footprint:run(Threads),
    #{memory_before_bytes := Before, memory_after_bytes := After, received := Received} = Footprint,
    Ok = Received =:= Threads,
    print_json([{workload, <<"footprint">>},
                {implementation, <<"erlang">>},
                {workers, erlang:system_info(schedulers_online)},
                {threads, Threads},
                {memory_before_bytes, Before},
                {memory_after_bytes, After},
                {bytes_per_parked_thread, {float, 1, (After - Before) / Threads}},
                {received, Received},
                {ok, Ok}]),
    case Ok of
        true -> 0;
        false ->
            io:format(standard_error, "wrong result: ~b of ~b processes received their message~n", [Received, Threads]),
            1
    end;
execute(#{workload := Workload, sizes := Sizes, runs := Runs}) ->
    warm_up(Workload, warm_up_sizes(Workload, Sizes), erlang:monotonic_time(millisecond), 0),
    Messages = messages(Workload, Sizes),
    Measurements = [begin
                        Measurement = measure(Workload, Sizes, Messages),
                        print(Workload, Sizes, integer_to_list(Run), Measurement),
                        Measurement
                    end || Run <- lists:seq(1, Runs)],
    print(Workload, Sizes, "median", median(Measurements)),
    Expected = expected(Workload, Sizes),
    case length([M || #{result := Result} = M <- Measurements, Result =/= Expected]) of
        0 -> 0;
        Wrong ->
            io:format(standard_error, "~b run(s) computed a wrong result.~n", [Wrong]),
            1
    end.

%% The warm-up sizes of Runner.WarmUpSizes: Skynet and the ring get a tenth of the processes (the ring keeps all
%% its messages, so its mailboxes fill as deep as in the measured run), the others a tenth of their messages.
%% The warm-up runs at least once and until half a second has passed. The BEAM compiles each module to native code
%% when it loads it, so it needs no longer; the .NET side warms up for 1.5 s, until tiered compilation has
%% promoted its hot methods.
warm_up_sizes(Workload, #{n := N, m := M, hops := H} = Sizes) when Workload =:= skynet; Workload =:= ring ->
    Sizes#{n := max(1, N div 10), m := M, hops := H};
warm_up_sizes(_Workload, #{m := M, hops := H} = Sizes) ->
    Sizes#{m := M div 10, hops := H div 10}.

warm_up(Workload, Sizes, Started, Done) ->
    case Done < 1 orelse erlang:monotonic_time(millisecond) - Started < ?WARM_UP_MS of
        true ->
            Workload:run(Sizes),
            warm_up(Workload, Sizes, Started, Done + 1);
        false ->
            ok
    end.

measure(Workload, Sizes, Messages) ->
    Start = erlang:monotonic_time(nanosecond),
    Result = Workload:run(Sizes),
    Elapsed = erlang:monotonic_time(nanosecond) - Start,
    #{elapsed_ms => Elapsed / 1.0e6, messages => Messages, peak => peak_working_set(), result => Result}.

%% The median elapsed time; the peak working set is the largest, the result the first run's (Measurement.Median).
median([First | _] = Measurements) ->
    Sorted = lists:sort([E || #{elapsed_ms := E} <- Measurements]),
    Count = length(Sorted),
    Middle = Count div 2,
    Elapsed = case Count rem 2 of
                  1 -> lists:nth(Middle + 1, Sorted);
                  0 -> (lists:nth(Middle, Sorted) + lists:nth(Middle + 1, Sorted)) / 2
              end,
    First#{elapsed_ms := Elapsed, peak := max_peak(Measurements)}.

max_peak(Measurements) ->
    case [P || #{peak := P} <- Measurements, is_integer(P)] of
        [] -> null;
        Peaks -> lists:max(Peaks)
    end.

%% VmHWM of /proc/self/status, in bytes, or null where there is none.
peak_working_set() ->
    case file:read_file("/proc/self/status") of
        {ok, Status} ->
            case re:run(Status, "^VmHWM:\\s*(\\d+)\\s*kB", [multiline, {capture, all_but_first, list}]) of
                {match, [KiB]} -> list_to_integer(KiB) * 1024;
                nomatch -> null
            end;
        {error, _} ->
            null
    end.

print(Workload, Sizes, Run, #{elapsed_ms := Ms, messages := Messages, peak := Peak, result := Result}) ->
    Expected = expected(Workload, Sizes),
    {PerSecond, NsPerMessage} = case Ms > 0 of
                                    true -> {round(Messages / (Ms / 1000)), {float, 3, Ms * 1.0e6 / Messages}};
                                    false -> {null, null}
                                end,
    print_json([{workload, atom_to_binary(Workload)},
                {parameters, unicode:characters_to_binary(describe(Workload, Sizes))},
                {implementation, <<"erlang">>},
                {workers, erlang:system_info(schedulers_online)},
                {run, list_to_binary(Run)},
                {elapsed_ms, {float, 3, Ms}},
                {messages, Messages},
                {messages_per_second, PerSecond},
                {ns_per_message, NsPerMessage},
                %% The BEAM has no counter comparable to .NET's allocated bytes and GC generations.
                {allocated_bytes, null},
                {gen0_collections, null},
                {gen1_collections, null},
                {gen2_collections, null},
                {peak_working_set_bytes, Peak},
                {result, Result},
                {expected, Expected},
                {ok, Result =:= Expected}]).

%% ---------------------------------------------------------------------------------------------------------------
%% One JSON object on one line. Values: binaries (strings), integers, {float, Decimals, X}, true, false, null.

print_json(Fields) ->
    Members = [[json_string(atom_to_binary(Name)), $:, json_value(Value)] || {Name, Value} <- Fields],
    io:put_chars([${, lists:join($,, Members), $}, $\n]).

json_value(Value) when is_binary(Value) -> json_string(Value);
json_value(Value) when is_integer(Value) -> integer_to_list(Value);
json_value({float, Decimals, Value}) -> io_lib:format("~.*f", [Decimals, float(Value)]);
json_value(Value) when Value =:= true; Value =:= false; Value =:= null -> atom_to_list(Value).

json_string(Text) ->
    [$", [json_char(C) || <<C/utf8>> <= Text], $"].

json_char($") -> "\\\"";
json_char($\\) -> "\\\\";
json_char(C) when C < 16#20 -> io_lib:format("\\u~4.16.0b", [C]);
json_char(C) -> <<C/utf8>>.

%% ---------------------------------------------------------------------------------------------------------------
%% A crashed process logs an error report and is otherwise forgotten, so the run waiting for its answer would
%% wait for ever. This handler prints any error report to stderr and halts with 3. It replaces the default
%% handler, which would print to stdout among the JSON lines.

watch_for_crashes() ->
    _ = logger:remove_handler(default),
    ok = logger:add_handler(bench_crash, ?MODULE, #{level => error}).

-spec log(logger:log_event(), logger:handler_config()) -> no_return().
log(Event, _Config) ->
    io:put_chars(standard_error, ["bench: a process failed, halting.\n", logger_formatter:format(Event, #{})]),
    erlang:halt(3).
