using System;
using System.Globalization;
using System.Text;

namespace ThreadIterators;

/// <summary>
/// Type names spelled as C# source spells them, for <c>ToString</c> and wait descriptions:
/// <c>Type.Name</c> prints <c>Mailbox&lt;ReplyTo&lt;int&gt;&gt;</c>'s message type as <c>ReplyTo`1</c>.
/// </summary>
/// <remarks>
/// A type that is neither generic, an array nor nullable keeps its <c>Type.Name</c> (<c>Int32</c>, not
/// <c>int</c>), so names that printed well before print the same; only generic arguments, arrays and nullable value
/// types are written out, recursively: <c>ReplyTo&lt;Int32&gt;</c>, <c>Int32[,]</c>, <c>Int32?</c>.
/// </remarks>
internal static class TypeNames
{
    /// <summary>
    /// Gets the C# name of <typeparamref name="T"/>, formatted once per closed type: an exploration trace prints the
    /// event of every step, and a mailbox's event prints its mailbox, so this is on a per-step path.
    /// </summary>
    /// <typeparam name="T">The type to name.</typeparam>
    /// <returns>The name, without namespace or declaring type.</returns>
    internal static string Of<T>() => Cached<T>.Name;

    /// <summary>Formats <paramref name="type"/> as C# source writes it, without namespace or declaring type.</summary>
    /// <param name="type">The type to name.</param>
    /// <returns>The name.</returns>
    internal static string Format(Type type)
    {
        // Only a generic, array or nullable type needs a builder; the rest is the name as before.
        return type.IsArray || type.IsGenericType ? Append(new StringBuilder(), type).ToString() : type.Name;
    }

    /// <summary>Appends the C# name of <paramref name="type"/> to <paramref name="into"/>, its arguments and elements recursively.</summary>
    private static StringBuilder Append(StringBuilder into, Type type)
    {
        if (type.IsArray)
        {
            // Int32[,] is a rank-2 array; an array of arrays is named from the inside out, as Int32[][].
            return Append(into, type.GetElementType()!).Append('[').Append(',', type.GetArrayRank() - 1).Append(']');
        }

        if (Nullable.GetUnderlyingType(type) is { } underlying)
        {
            return Append(into, underlying).Append('?');
        }

        var name = type.Name;
        var tick = name.IndexOf('`', StringComparison.Ordinal);
        if (!type.IsGenericType || tick < 0)
        {
            // A type nested in a generic one carries its declaring type's arguments without taking any itself.
            return into.Append(name);
        }

        // The arguments of this type are the last of GetGenericArguments(), after those of its declaring types, and
        // its name says how many there are: ReplyTo`1.
        var own = int.Parse(name.AsSpan(tick + 1), provider: CultureInfo.InvariantCulture);
        var arguments = type.GetGenericArguments();
        into.Append(name, 0, tick).Append('<');
        for (var i = arguments.Length - own; i < arguments.Length; i++)
        {
            Append(into, arguments[i]);
            if (i < arguments.Length - 1)
            {
                into.Append(", ");
            }
        }

        return into.Append('>');
    }

    /// <summary>The name of one closed type, formatted when the type is first named.</summary>
    /// <typeparam name="T">The type named.</typeparam>
    private static class Cached<T>
    {
        /// <summary>The C# name of <typeparamref name="T"/>.</summary>
        internal static readonly string Name = Format(typeof(T));
    }
}
