using WordCount;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void WordCount_EveryVariant_OneToThreeConsumers_CountsEqualTheSingleThreadedCount()
    {
        var reference = WordCountJob.SingleThreaded(WordCountCorpus.Path, passes: 2);
        Assert.True(reference.Pages > 100, "the corpus has pages");
        foreach (var variant in Variant.All)
        {
            for (var consumers = 1; consumers <= 3; consumers++)
            {
                var counts = WordCountJob.Run(variant, WordCountCorpus.Path, consumers, Scheduler, passes: 2);
                Assert.True(counts.SameAs(reference), $"{variant.Name} with {consumers} consumers counted {counts.Total} words in {counts.Pages} pages, against {reference.Total} in {reference.Pages}.");
            }
        }
    }
}
