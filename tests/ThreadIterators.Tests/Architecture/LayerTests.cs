using System;
using System.Linq;

namespace ThreadIterators.Tests;

/// <summary>
/// The core names no feature: no type of a core folder names a type of a feature folder, so features plug into the
/// core through the interfaces it declares, and the core builds and reads on its own.
/// </summary>
public sealed class LayerTests
{
    private static string LibraryPath => typeof(Scheduler).Assembly.Location;

    [Fact]
    public void CoreFolders_NameNoFeatureType()
    {
        var arrows = LibraryLayers.References(LibraryPath, LibraryLayers.Core, LibraryLayers.Features);
        Assert.True(arrows.Count == 0, $"The core names {arrows.Count} feature types; a core folder declares an internal interface the feature implements instead:{Environment.NewLine}{string.Join(Environment.NewLine, arrows)}");
    }

    [Fact]
    public void EveryFolder_IsCoreOrFeature()
    {
        var unplaced = LibraryLayers.SourceFolders().Except(LibraryLayers.Core).Except(LibraryLayers.Features).ToList();
        Assert.True(unplaced.Count == 0, $"Folders in neither the core nor the features (say which, in LibraryLayers): {string.Join(", ", unplaced)}");
        Assert.Empty(LibraryLayers.Core.Intersect(LibraryLayers.Features));
    }

    [Fact]
    public void TheCheck_FindsArrows_WhereTheyExist()
    {
        // The same reading, pointed where references are known to exist: every feature names core types (a mailbox,
        // an event), and the scheduler names the mailboxes' dead letters. A check that found none here could not fail.
        var intoCore = LibraryLayers.References(LibraryPath, LibraryLayers.Features, LibraryLayers.Core);
        Assert.Contains(intoCore, static a => a.StartsWith("Supervision/", StringComparison.Ordinal) && a.EndsWith(" names Threads/GreenThread", StringComparison.Ordinal));
        var schedulingToMailboxes = LibraryLayers.References(LibraryPath, ["Scheduling"], ["Mailboxes"]);
        Assert.Contains("Scheduling/Scheduler names Mailboxes/DeadLetterReason", schedulingToMailboxes);
    }
}
