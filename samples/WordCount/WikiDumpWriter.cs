using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using System.Xml;

namespace WordCount;

/// <summary>Writes pages as a MediaWiki XML dump in the pages-articles format, the one <see cref="WikiDumpReader"/> reads.</summary>
public static class WikiDumpWriter
{
    private const string Namespace = "http://www.mediawiki.org/xml/export-0.11/";

    /// <summary>Writes <paramref name="pages"/> to <paramref name="path"/> as a dump of the site <paramref name="siteName"/>.</summary>
    /// <param name="path">The file to write.</param>
    /// <param name="siteName">The site's name, for the dump's header.</param>
    /// <param name="pages">The pages, written in order with ids from 1.</param>
    /// <returns>The number of pages written.</returns>
    public static int Write(string path, string siteName, IEnumerable<Page> pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var settings = new XmlWriterSettings { Indent = true, Encoding = new UTF8Encoding(false) };
        using var writer = XmlWriter.Create(path, settings);
        writer.WriteStartElement("mediawiki", Namespace);
        writer.WriteAttributeString("version", "0.11");
        writer.WriteAttributeString("xml", "lang", null, "en");
        writer.WriteStartElement("siteinfo", Namespace);
        writer.WriteElementString("sitename", Namespace, siteName);
        writer.WriteElementString("dbname", Namespace, "corpus");
        writer.WriteElementString("generator", Namespace, "ThreadIterators WordCount sample");
        writer.WriteEndElement();
        var id = 0;
        foreach (var page in pages)
        {
            id++;
            var number = id.ToString(CultureInfo.InvariantCulture);
            writer.WriteStartElement("page", Namespace);
            writer.WriteElementString("title", Namespace, page.Title);
            writer.WriteElementString("ns", Namespace, "0");
            writer.WriteElementString("id", Namespace, number);
            writer.WriteStartElement("revision", Namespace);
            writer.WriteElementString("id", Namespace, number);
            writer.WriteElementString("timestamp", Namespace, "2001-01-15T00:00:00Z");
            writer.WriteStartElement("contributor", Namespace);
            writer.WriteElementString("username", Namespace, siteName);
            writer.WriteElementString("id", Namespace, "0");
            writer.WriteEndElement();
            writer.WriteElementString("model", Namespace, "wikitext");
            writer.WriteElementString("format", Namespace, "text/x-wiki");
            writer.WriteStartElement("text", Namespace);
            writer.WriteAttributeString("bytes", Encoding.UTF8.GetByteCount(page.Text).ToString(CultureInfo.InvariantCulture));
            writer.WriteAttributeString("xml", "space", null, "preserve");
            writer.WriteString(page.Text);
            writer.WriteEndElement();
            writer.WriteEndElement();
            writer.WriteEndElement();
        }

        writer.WriteEndElement();
        return id;
    }
}
