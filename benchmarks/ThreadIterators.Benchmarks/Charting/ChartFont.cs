using System;
using System.IO;
using ScottPlot;
using SkiaSharp;

namespace ThreadIterators.Benchmarks.Charting;

/// <summary>
/// Gives every chart the typeface shipped inside this assembly (DejaVu Sans, see DejaVuSans.LICENSE.txt), whatever
/// font a label asks for. Skia finds typefaces through fontconfig; on a machine with no fonts installed it finds none
/// and draws every label as nothing, so a chart rendered on a fresh machine would have no text at all. One typeface
/// for every label also makes the charts look the same on every machine.
/// </summary>
internal sealed class ChartFont : IFontResolver
{
    /// <summary>The family name the charts ask for.</summary>
    public const string Family = "DejaVu Sans";

    private static readonly object s_gate = new();
    private static bool s_installed;

    private readonly SKData _data;

    private ChartFont(SKData data) => _data = data;

    /// <summary>Puts the shipped typeface first among ScottPlot's font resolvers and makes it the default, once per process.</summary>
    public static void Install()
    {
        lock (s_gate)
        {
            if (s_installed)
            {
                return;
            }

            using var stream = typeof(ChartFont).Assembly.GetManifestResourceStream("ThreadIterators.Benchmarks.Charting.DejaVuSans.ttf")
                ?? throw new InvalidOperationException("the chart typeface DejaVuSans.ttf is not embedded in the benchmarks assembly.");
            using var copy = new MemoryStream();
            stream.CopyTo(copy);
            var resolver = new ChartFont(SKData.CreateCopy(copy.ToArray()));
            if (resolver.CreateTypeface(Family, false, false) is null)
            {
                throw new InvalidOperationException("Skia could not read the embedded chart typeface DejaVuSans.ttf.");
            }

            Fonts.FontResolvers.Insert(0, resolver);
            Fonts.Default = Family;
            s_installed = true;
        }
    }

    /// <inheritdoc/>
    public SKTypeface? CreateTypeface(string fontName, FontWeight weight, FontSlant slant, FontSpacing spacing) => SKTypeface.FromData(_data);

    /// <inheritdoc/>
    public SKTypeface? CreateTypeface(string fontName, bool bold, bool italic) => SKTypeface.FromData(_data);
}
