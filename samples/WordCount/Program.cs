using System;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using ThreadIterators;
using WordCount;

// dotnet run -c Release --project samples/WordCount -- [DUMP.xml] [--consumers N] [--workers W] [--passes P] [--variant NAME[,NAME]|all]
// Counts the words of a MediaWiki dump (by default, a corpus built from Debian's perl-doc) once on one thread and
// then with every variant, checks each variant's counts equal the single-threaded ones, and prints the times.
string? dump = null;
var consumers = 2;
var workers = 2;
var passes = 1;
var variants = Variant.All;
for (var i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--consumers" when i + 1 < args.Length && int.TryParse(args[i + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out var c) && c > 0:
            consumers = c;
            i++;
            break;
        case "--workers" when i + 1 < args.Length && int.TryParse(args[i + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out var w) && w > 0:
            workers = w;
            i++;
            break;
        case "--passes" when i + 1 < args.Length && int.TryParse(args[i + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out var p) && p > 0:
            passes = p;
            i++;
            break;
        case "--variant" when i + 1 < args.Length:
            variants = Variant.Parse(args[++i]);
            break;
        default:
            if (args[i].StartsWith('-') || dump is not null)
            {
                Console.Error.WriteLine("usage: WordCount [DUMP.xml] [--consumers N] [--workers W] [--passes P] [--variant NAME[,NAME]|all]");
                return 2;
            }

            dump = args[i];
            break;
    }
}

dump ??= Corpus.DefaultPath();
var stopwatch = Stopwatch.StartNew();
var reference = WordCountJob.SingleThreaded(dump, passes);
Console.WriteLine($"{dump}: {reference.Pages:N0} pages, {reference.Total:N0} words, {reference.Distinct:N0} different; one thread: {stopwatch.Elapsed.TotalSeconds:F2} s");
Console.WriteLine("most frequent: " + string.Join(", ", reference.Top(10).Select(p => $"{p.Key} {p.Value:N0}")));
Console.WriteLine($"{consumers} consumers, green threads on {workers} workers:");

var wrong = 0;
using var scheduler = new Scheduler(workers);
foreach (var variant in variants)
{
    stopwatch.Restart();
    var counts = WordCountJob.Run(variant, dump, consumers, scheduler, passes);
    var seconds = stopwatch.Elapsed.TotalSeconds;
    var same = counts.SameAs(reference);
    wrong += same ? 0 : 1;
    Console.WriteLine($"  {variant.Name,-14} {seconds,6:F2} s  {(same ? "counts match" : "COUNTS DIFFER")}");
}

return wrong == 0 ? 0 : 1;
