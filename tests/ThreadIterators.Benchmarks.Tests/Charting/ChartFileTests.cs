using System;
using System.IO;
using ThreadIterators.Benchmarks.Charting;

namespace ThreadIterators.Tests;

/// <summary>The charts are drawn by ScottPlot with the typeface the benchmarks carry, on any machine.</summary>
public sealed class ChartFileTests
{
    [Fact]
    public void Labels_UseTheShippedTypeface_WhateverFontTheyAskFor()
    {
        ChartFont.Install();

        foreach (var name in new[] { ScottPlot.Fonts.Default, "sans", "Arial", "no such font" })
        {
            using var typeface = ScottPlot.Fonts.GetTypeface(name, bold: false, italic: false);
            Assert.Equal(ChartFont.Family, typeface.FamilyName);
            Assert.True(typeface.GlyphCount > 1_000, $"'{name}' resolved to a typeface with {typeface.GlyphCount} glyphs");
        }
    }

    [Fact]
    public void Save_DrawsEveryPanelWithItsText_AndLeavesOutPointsThatFailed()
    {
        var path = Path.Combine(Directory.CreateTempSubdirectory("chart-test-").FullName, "chart.png");
        var top = new ChartPanel("time", "N", "ms", [new("a", [(64, 1.5), (128, double.NaN), (256, 30)], "#1f4e9c"), new("b", [(64, 2), (256, 90)], "#c0392b", Marker: false)], LogXBase: 2, LogYBase: 10);
        var bottom = new ChartPanel("ratio", "N", "a / b", [new("ratio", [(64, 1.3), (256, 3)], "#16a085")], LogXBase: 2, Levels: [new(4, "4x", "#555555")]);

        ChartFile.Save(path, 600, 300, top, bottom);

        using var bitmap = SkiaSharp.SKBitmap.Decode(path);
        Assert.Equal(600, bitmap.Width);
        Assert.Equal(600, bitmap.Height);
        // The titles are the only ink in the top rows of each panel: no title glyphs, no dark pixels there.
        Assert.True(DarkPixels(bitmap, 0, 25) > 50, "the top panel's title was not drawn");
        Assert.True(DarkPixels(bitmap, 300, 325) > 50, "the bottom panel's title was not drawn");
    }

    [Fact]
    public void Save_DrawsABarPerCategoryAndSeries_AndLeavesOutBarsThatFailed()
    {
        var path = Path.Combine(Directory.CreateTempSubdirectory("chart-test-").FullName, "bars.png");
        var panel = new ChartPanel(
            "speed-up",
            "workload",
            "x",
            [new("a", [(0, 3), (1, double.NaN)], "#1f4e9c"), new("b", [(0, 1), (1, 1)], "#c0392b")],
            Levels: [new(1, "1x", "#555555")],
            Categories: ["ring", "skynet"]);

        ChartFile.Save(path, 600, 400, panel);

        using var bitmap = SkiaSharp.SKBitmap.Decode(path);
        var a = PixelsOf(bitmap, SkiaSharp.SKColor.Parse("#1f4e9c"));
        var b = PixelsOf(bitmap, SkiaSharp.SKColor.Parse("#c0392b"));
        // b's two bars, 1 high each, hold two thirds of the area of a's one bar, 3 high (its failed bar is not drawn);
        // the legend's swatches are small.
        Assert.True(a > 1_000, $"series a drew {a} pixels");
        Assert.InRange(b / (double)a, 0.55, 0.8);
    }

    [Fact]
    public void Save_RefusesAPanelWithNothingToDraw()
    {
        var path = Path.Combine(Path.GetTempPath(), "never-written.png");
        var empty = new ChartPanel("empty", "x", "y", [new("failed", [(1, double.NaN)], "#000000")]);

        var e = Assert.Throws<InvalidOperationException>(() => ChartFile.Save(path, 400, 300, empty));

        Assert.Contains("'empty'", e.Message, StringComparison.Ordinal);
    }

    private static int PixelsOf(SkiaSharp.SKBitmap bitmap, SkiaSharp.SKColor color)
    {
        var count = 0;
        for (var y = 0; y < bitmap.Height; y++)
        {
            for (var x = 0; x < bitmap.Width; x++)
            {
                var pixel = bitmap.GetPixel(x, y);
                if (pixel.Red == color.Red && pixel.Green == color.Green && pixel.Blue == color.Blue)
                {
                    count++;
                }
            }
        }

        return count;
    }

    private static int DarkPixels(SkiaSharp.SKBitmap bitmap, int fromRow, int toRow)
    {
        var dark = 0;
        for (var y = fromRow; y < toRow; y++)
        {
            for (var x = 0; x < bitmap.Width; x++)
            {
                var pixel = bitmap.GetPixel(x, y);
                if (pixel.Red + pixel.Green + pixel.Blue < 200)
                {
                    dark++;
                }
            }
        }

        return dark;
    }
}
