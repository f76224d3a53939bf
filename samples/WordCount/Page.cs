namespace WordCount;

/// <summary>One article of a MediaWiki dump: its title and its wikitext.</summary>
/// <param name="Title">The page title.</param>
/// <param name="Text">The text of its latest revision.</param>
public sealed record Page(string Title, string Text);
