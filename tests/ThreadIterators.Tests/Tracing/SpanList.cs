using System.Collections;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;

namespace ThreadIterators.Tests;

/// <summary>
/// Where OpenTelemetry's in-memory exporter puts the spans, safe to read while it adds: it adds from whichever thread
/// ends a span, and a plain list read meanwhile could throw. Linked into the Orleans and web tests as well.
/// </summary>
internal sealed class SpanList : ICollection<Activity>
{
    private readonly List<Activity> _spans = [];

    public int Count
    {
        get
        {
            lock (_spans)
            {
                return _spans.Count;
            }
        }
    }

    public bool IsReadOnly => false;

    /// <summary>Gets a copy of the spans exported so far.</summary>
    public List<Activity> Snapshot()
    {
        lock (_spans)
        {
            return [.. _spans];
        }
    }

    public void Add(Activity item)
    {
        lock (_spans)
        {
            _spans.Add(item);
        }
    }

    public void Clear()
    {
        lock (_spans)
        {
            _spans.Clear();
        }
    }

    public bool Contains(Activity item) => Snapshot().Contains(item);

    public void CopyTo(Activity[] array, int arrayIndex) => Snapshot().CopyTo(array, arrayIndex);

    public bool Remove(Activity item)
    {
        lock (_spans)
        {
            return _spans.Remove(item);
        }
    }

    public IEnumerator<Activity> GetEnumerator() => Snapshot().GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}
