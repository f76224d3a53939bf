using System;
using System.IO;
using System.Text;
using System.Text.Json;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>Prints one JSON object on one line, the form every machine-read output of this program takes.</summary>
internal static class JsonLine
{
    public static void Print(Action<Utf8JsonWriter> writeFields)
    {
        using var stream = new MemoryStream();
        using (var json = new Utf8JsonWriter(stream))
        {
            json.WriteStartObject();
            writeFields(json);
            json.WriteEndObject();
        }

        Console.WriteLine(Encoding.UTF8.GetString(stream.ToArray()));
    }
}
