using System.IO;
using System.Linq;
using WordCount;

namespace ThreadIterators.Tests;

public sealed class WordCountTests
{
    [Fact]
    public void Dump_WrittenThenRead_GivesBackEveryArticle_AndSkipsRedirectsAndOtherNamespaces()
    {
        var read = WikiDumpReader.Read(WordCountCorpus.Path).ToList();
        Assert.Equal(WordCountCorpus.Pages, read);

        var path = Path.GetTempFileName();
        File.WriteAllText(path, """
            <mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">
              <siteinfo><sitename>Wikipedia</sitename></siteinfo>
              <page><title>Anarchism</title><ns>0</ns><id>12</id><revision><id>1</id><text bytes="22" xml:space="preserve">Anarchism is a '''political''' philosophy.</text></revision></page>
              <page><title>AccessibleComputing</title><ns>0</ns><id>10</id><redirect title="Computer accessibility" /><revision><text xml:space="preserve">#REDIRECT [[Computer accessibility]]</text></revision></page>
              <page><title>Talk:Anarchism</title><ns>1</ns><id>13</id><revision><text xml:space="preserve">A talk page.</text></revision></page>
            </mediawiki>
            """);
        try
        {
            var page = Assert.Single(WikiDumpReader.Read(path));
            Assert.Equal("Anarchism", page.Title);
            Assert.Equal("Anarchism is a '''political''' philosophy.", page.Text);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void WordCounts_CountLowerCasedLetterRuns_KeepingInnerApostrophes()
    {
        var counts = new WordCounts();
        counts.Add(new Page("t", "Don't panic: DON'T, the 'answer' is 42 -- the Answer."));
        Assert.Equal(8, counts.Total);
        Assert.Equal([new("answer", 2), new("don't", 2), new("the", 2), new("is", 1), new("panic", 1)], counts.Top(5));
        Assert.Equal(5, counts.Distinct);
    }

    [Fact]
    public void WordCounts_MergeAndSameAs_CompareEveryWord()
    {
        var whole = new WordCounts();
        var first = new WordCounts();
        var second = new WordCounts();
        foreach (var (page, i) in WordCountCorpus.Pages.Select((p, i) => (p, i)))
        {
            whole.Add(page);
            (i % 2 == 0 ? first : second).Add(page);
        }

        var merged = WordCounts.MergeAll([first, second]);
        Assert.True(merged.SameAs(whole));
        Assert.False(first.SameAs(whole));
        second.Add(new Page("extra", "word"));
        Assert.False(WordCounts.MergeAll([first, second]).SameAs(whole));
    }
}
