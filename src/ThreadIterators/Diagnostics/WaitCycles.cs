using System.Collections.Generic;

namespace ThreadIterators;

/// <summary>
/// Finds the cycles of a wait-for graph: Tarjan's strongly connected components, iteratively (a graph may hold a
/// million threads, too deep for recursion), then one cycle through each component, from its lowest id.
/// </summary>
internal static class WaitCycles
{
    internal static IReadOnlyList<IReadOnlyList<GreenThread>> Find(List<ThreadWait> threads)
    {
        var index = new Dictionary<GreenThread, int>(threads.Count);
        for (var i = 0; i < threads.Count; i++)
        {
            index[threads[i].Thread] = i;
        }

        // Edges to live threads only: a thread that ended cannot be in a cycle (its joiners will be woken).
        var edges = new List<int>[threads.Count];
        for (var i = 0; i < threads.Count; i++)
        {
            edges[i] = [];
            foreach (var on in threads[i].WaitsOn)
            {
                if (index.TryGetValue(on, out var j))
                {
                    edges[i].Add(j);
                }
            }
        }

        var cycles = new List<IReadOnlyList<GreenThread>>();
        foreach (var component in Components(edges))
        {
            if (component.Count > 1 || edges[component[0]].Contains(component[0]))
            {
                cycles.Add(CycleThrough(component, edges, threads));
            }
        }

        cycles.Sort(static (a, b) => a[0].Id.CompareTo(b[0].Id));
        return cycles;
    }

    /// <summary>Tarjan's algorithm with an explicit stack of (node, next edge).</summary>
    private static List<List<int>> Components(List<int>[] edges)
    {
        var n = edges.Length;
        var order = new int[n];
        var low = new int[n];
        var onStack = new bool[n];
        var visited = new bool[n];
        var stack = new Stack<int>();
        var calls = new Stack<(int Node, int Edge)>();
        var components = new List<List<int>>();
        var counter = 0;
        for (var root = 0; root < n; root++)
        {
            if (visited[root])
            {
                continue;
            }

            calls.Push((root, 0));
            while (calls.Count > 0)
            {
                var (node, edge) = calls.Pop();
                if (edge == 0 && !visited[node])
                {
                    visited[node] = true;
                    order[node] = low[node] = counter++;
                    stack.Push(node);
                    onStack[node] = true;
                }

                if (edge < edges[node].Count)
                {
                    calls.Push((node, edge + 1));
                    var next = edges[node][edge];
                    if (!visited[next])
                    {
                        calls.Push((next, 0));
                    }
                    else if (onStack[next])
                    {
                        low[node] = System.Math.Min(low[node], order[next]);
                    }

                    continue;
                }

                // All edges of node done: report a component, then hand low to the caller.
                if (low[node] == order[node])
                {
                    var component = new List<int>();
                    int member;
                    do
                    {
                        member = stack.Pop();
                        onStack[member] = false;
                        component.Add(member);
                    }
                    while (member != node);
                    components.Add(component);
                }

                if (calls.Count > 0)
                {
                    var caller = calls.Peek().Node;
                    low[caller] = System.Math.Min(low[caller], low[node]);
                }
            }
        }

        return components;
    }

    /// <summary>A shortest cycle from the component's lowest-id thread back to it, by a breadth-first search inside the component.</summary>
    private static List<GreenThread> CycleThrough(List<int> component, List<int>[] edges, List<ThreadWait> threads)
    {
        var start = component[0];
        foreach (var member in component)
        {
            if (threads[member].Thread.Id < threads[start].Thread.Id)
            {
                start = member;
            }
        }

        var inComponent = new HashSet<int>(component);
        var previous = new Dictionary<int, int>();
        var queue = new Queue<int>();
        queue.Enqueue(start);
        var last = -1;
        while (queue.Count > 0 && last < 0)
        {
            var node = queue.Dequeue();
            foreach (var next in edges[node])
            {
                if (next == start)
                {
                    last = node;
                    break;
                }

                if (inComponent.Contains(next) && !previous.ContainsKey(next) && next != start)
                {
                    previous[next] = node;
                    queue.Enqueue(next);
                }
            }
        }

        var cycle = new List<GreenThread>();
        for (var node = last; node != start; node = previous[node])
        {
            cycle.Add(threads[node].Thread);
        }

        cycle.Add(threads[start].Thread);
        cycle.Reverse();
        return cycle;
    }
}
