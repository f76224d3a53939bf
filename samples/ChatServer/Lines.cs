using System;
using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Text;

namespace ThreadIterators.Samples.Chat;

/// <summary>
/// The byte work of a connection, the same whatever runs it: cutting lines out of what a client sent, and writing lines
/// into send buffers. Buffers are borrowed from the shared pool and given back once empty, so that an idle connection
/// holds none.
/// </summary>
internal static class Lines
{
    /// <summary>How many bytes of waiting lines a writer gathers into one send.</summary>
    internal const int SendBatchBytes = 16 * 1024;

    /// <summary>
    /// Takes the next whole line out of <paramref name="buffer"/> from <paramref name="start"/> up to
    /// <paramref name="filled"/>, without its "\n" or "\r\n", and moves <paramref name="start"/> past it.
    /// </summary>
    internal static bool TryTake(byte[] buffer, ref int start, int filled, out string line)
    {
        var end = Array.IndexOf(buffer, (byte)'\n', start, filled - start);
        if (end < 0)
        {
            line = string.Empty;
            return false;
        }

        var length = end > start && buffer[end - 1] == '\r' ? end - start - 1 : end - start;
        line = Encoding.UTF8.GetString(buffer, start, length);
        start = end + 1;
        return true;
    }

    /// <summary>
    /// Writes <paramref name="line"/> and "\n" at <paramref name="length"/>, borrowing a buffer (of at least a batch)
    /// if there is none or a larger one if it does not fit; returns the length after it.
    /// </summary>
    internal static int Append([NotNull] ref byte[]? buffer, int length, string line)
    {
        var needed = length + Encoding.UTF8.GetMaxByteCount(line.Length) + 1;
        if (buffer is null || needed > buffer.Length)
        {
            var larger = ArrayPool<byte>.Shared.Rent(Math.Max(needed, SendBatchBytes));
            if (buffer is not null)
            {
                Buffer.BlockCopy(buffer, 0, larger, 0, length);
                ArrayPool<byte>.Shared.Return(buffer);
            }

            buffer = larger;
        }

        length += Encoding.UTF8.GetBytes(line, 0, line.Length, buffer, length);
        buffer[length] = (byte)'\n';
        return length + 1;
    }

    /// <summary>Gives a borrowed buffer back to the pool if it holds nothing (<paramref name="filled"/> is 0).</summary>
    internal static void ReturnIfEmpty(ref byte[]? buffer, int filled)
    {
        if (buffer is not null && filled == 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
            buffer = null;
        }
    }
}
