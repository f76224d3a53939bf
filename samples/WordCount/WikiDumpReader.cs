using System.Collections.Generic;
using System.IO;
using System.Xml;

namespace WordCount;

/// <summary>
/// Reads the articles of a MediaWiki XML dump in the pages-articles format (as Wikipedia publishes it), one
/// <see cref="Page"/> at a time, with <see cref="XmlReader"/>: the whole dump is never in memory.
/// </summary>
public static class WikiDumpReader
{
    /// <summary>Reads the articles (namespace 0, not redirects) of the dump at <paramref name="path"/>, lazily, in file order.</summary>
    /// <param name="path">The dump, uncompressed.</param>
    /// <returns>The pages.</returns>
    public static IEnumerable<Page> Read(string path)
    {
        var settings = new XmlReaderSettings
        {
            DtdProcessing = DtdProcessing.Prohibit,
            IgnoreWhitespace = true,
            IgnoreComments = true,
        };
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16);
        using var reader = XmlReader.Create(stream, settings);
        while (reader.ReadToFollowing("page"))
        {
            using var page = reader.ReadSubtree();
            if (ReadPage(page) is { } article)
            {
                yield return article;
            }
        }
    }

    private static Page? ReadPage(XmlReader page)
    {
        string? title = null;
        string? text = null;
        var ns = "0";
        var redirect = false;
        page.Read();
        while (!page.EOF)
        {
            if (page.NodeType == XmlNodeType.Element)
            {
                // Reading an element's content moves past its end tag, onto the next node: no Read() after it.
                switch (page.LocalName)
                {
                    case "title":
                        title = page.ReadElementContentAsString();
                        continue;
                    case "ns":
                        ns = page.ReadElementContentAsString();
                        continue;
                    case "text":
                        text = page.ReadElementContentAsString();
                        continue;
                    case "redirect":
                        redirect = true;
                        break;
                }
            }

            page.Read();
        }

        return title is null || text is null || ns != "0" || redirect ? null : new Page(title, text);
    }
}
