using System;

namespace ThreadIterators.Samples.Chat;

/// <summary>A running chat server of this sample's protocol, whichever way it is written: where it listens and its counts.</summary>
public interface IChatServer : IDisposable
{
    /// <summary>Gets the port the server listens on, on 127.0.0.1.</summary>
    int Port { get; }

    /// <summary>Gets the live counts.</summary>
    ChatCounters Counters { get; }
}
