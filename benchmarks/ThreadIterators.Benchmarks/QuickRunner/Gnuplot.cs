using System;
using System.IO;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>Draws a chart with gnuplot: the data and the script in a temporary folder, deleted afterwards.</summary>
internal static class Gnuplot
{
    /// <summary>
    /// Writes <paramref name="data"/> to a file, passes its path to <paramref name="script"/> to make the script, and
    /// runs gnuplot on it, which must write <paramref name="chart"/>. Throws <see cref="InvalidOperationException"/> if
    /// gnuplot fails, times out or writes nothing.
    /// </summary>
    public static void Render(string gnuplot, string data, Func<string, string> script, string chart)
    {
        var folder = Directory.CreateTempSubdirectory("chart-");
        try
        {
            var dataFile = Path.Combine(folder.FullName, "chart.dat");
            File.WriteAllText(dataFile, data);
            var scriptFile = Path.Combine(folder.FullName, "chart.gp");
            File.WriteAllText(scriptFile, script(dataFile));
            var outcome = ChildProcess.Run(gnuplot, [scriptFile], TimeSpan.FromMinutes(2));
            if (outcome.ExitCode != 0 || !File.Exists(chart))
            {
                throw new InvalidOperationException($"gnuplot failed with exit code {outcome.ExitCode}:\n{outcome.Error}");
            }
        }
        catch (TimeoutException e)
        {
            throw new InvalidOperationException(e.Message, e);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }
}
