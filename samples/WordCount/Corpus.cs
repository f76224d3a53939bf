using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;

namespace WordCount;

/// <summary>
/// The default corpus: real English text that a fresh Debian machine can get, written as a MediaWiki dump. The text is
/// Perl's documentation from Debian's <c>perl-doc</c> package (about 9 MB in 206 files); each top-level section of
/// each document becomes one page. Built once and kept in the temporary directory.
/// </summary>
public static class Corpus
{
    /// <summary>The Debian package whose text the default corpus is made of.</summary>
    public const string Package = "perl-doc";

    /// <summary>Fewest documentation files that count as the package being installed (it ships about 200).</summary>
    private const int FewestPods = 100;

    /// <summary>
    /// Gets the default corpus's path, building it first if needed (installing <see cref="Package"/> with apt-get when
    /// running as root on a machine that has it).
    /// </summary>
    /// <returns>The dump's path.</returns>
    /// <exception cref="InvalidOperationException">The package is not installed and cannot be installed here.</exception>
    public static string DefaultPath()
    {
        var directory = FindPods() ?? InstallAndFindPods();
        var files = Directory.GetFiles(directory, "*.pod").Order(StringComparer.Ordinal).ToArray();
        var path = Path.Combine(Path.GetTempPath(), "threaditerators-wordcount", $"perl-doc-{files.Length}-{files.Sum(f => new FileInfo(f).Length)}.xml");
        if (!File.Exists(path))
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            var building = path + ".part";
            WikiDumpWriter.Write(building, "perl-doc", files.SelectMany(PagesOf));
            File.Move(building, path, overwrite: true);
        }

        return path;
    }

    /// <summary>Splits one POD document into pages at its <c>=head1</c> headings, turning POD commands into wikitext.</summary>
    /// <param name="file">The document.</param>
    /// <returns>Its pages.</returns>
    public static IEnumerable<Page> PagesOf(string file)
    {
        var document = Path.GetFileNameWithoutExtension(file);
        string? heading = null;
        var text = new StringBuilder();
        foreach (var line in File.ReadLines(file))
        {
            if (line.StartsWith("=head1", StringComparison.Ordinal))
            {
                if (heading is not null && text.Length > 0)
                {
                    yield return new Page($"{document}: {heading}", text.ToString());
                }

                heading = line.Length > 7 ? line[7..].Trim() : document;
                text.Clear();
            }
            else if (line.StartsWith("=head", StringComparison.Ordinal) && line.Length > 6)
            {
                text.Append("== ").Append(line[6..].Trim()).AppendLine(" ==");
            }
            else if (line.StartsWith("=item", StringComparison.Ordinal))
            {
                text.Append("* ").AppendLine(line.Length > 6 ? line[6..].Trim() : string.Empty);
            }
            else if (!line.StartsWith('='))
            {
                text.AppendLine(line);
            }
        }

        if (heading is not null && text.Length > 0)
        {
            yield return new Page($"{document}: {heading}", text.ToString());
        }
    }

    private static string? FindPods()
    {
        const string perl = "/usr/share/perl";
        if (!Directory.Exists(perl))
        {
            return null;
        }

        return Directory.GetDirectories(perl)
            .Select(version => Path.Combine(version, "pod"))
            .Where(Directory.Exists)
            .FirstOrDefault(pod => Directory.GetFiles(pod, "*.pod").Length >= FewestPods);
    }

    private static string InstallAndFindPods()
    {
        if (Environment.UserName == "root" && File.Exists("/usr/bin/apt-get"))
        {
            Console.Error.WriteLine($"Installing Debian's {Package}, whose text makes the default corpus...");
            Run("apt-get", "update -qq");
            Run("apt-get", $"install -y -qq --no-install-recommends {Package}");
            if (FindPods() is { } found)
            {
                return found;
            }
        }

        throw new InvalidOperationException(
            $"The default corpus is made of Debian's {Package} package, which is not installed: run 'apt-get install {Package}' as root, or pass the path of a MediaWiki XML dump (pages-articles format).");
    }

    private static void Run(string program, string arguments)
    {
        var start = new ProcessStartInfo(program, arguments) { UseShellExecute = false };
        start.Environment["DEBIAN_FRONTEND"] = "noninteractive";
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {program}.");
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"'{program} {arguments}' failed with exit code {process.ExitCode}.");
        }
    }
}
