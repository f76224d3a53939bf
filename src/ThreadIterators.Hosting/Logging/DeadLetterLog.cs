using System;
using System.Threading;
using Microsoft.Extensions.Logging;

namespace ThreadIterators.Hosting;

/// <summary>
/// Logs dead letters, at most a number a minute one by one; the rest of each minute are counted, and logged as one
/// entry when the minute is over (on the next dead letter, on the timer, or at the stop). Any thread.
/// </summary>
internal sealed class DeadLetterLog : IDisposable
{
    private static readonly TimeSpan Minute = TimeSpan.FromMinutes(1);

    private readonly ILogger _logger;
    private readonly int _perMinute;
    private readonly object _gate = new();
    private readonly Timer _flush;
    private DateTime _windowStart = DateTime.UtcNow;
    private int _logged;
    private long _suppressed;

    internal DeadLetterLog(ILogger logger, int perMinute)
    {
        _logger = logger;
        _perMinute = perMinute;
        _flush = new Timer(static log => ((DeadLetterLog)log!).Flush(), this, Minute, Minute);
    }

    internal void OnDeadLetter(object? sender, DeadLetterEventArgs e)
    {
        if (_perMinute == 0 || !_logger.IsEnabled(LogLevel.Information))
        {
            return;
        }

        bool log;
        lock (_gate)
        {
            RollIfOver();
            log = _logged < _perMinute;
            if (log)
            {
                _logged++;
            }
            else
            {
                _suppressed++;
            }
        }

        if (log)
        {
            SchedulerLog.DeadLetter(_logger, e.Message?.GetType(), e.Mailbox, e.Reason);
        }
    }

    /// <summary>Logs the count of the letters not logged one by one, if any, and starts a new minute once this one is over.</summary>
    internal void Flush()
    {
        long suppressed;
        lock (_gate)
        {
            suppressed = _suppressed;
            _suppressed = 0;
            RollIfOver();
        }

        if (suppressed > 0)
        {
            SchedulerLog.DeadLettersSuppressed(_logger, suppressed);
        }
    }

    public void Dispose() => _flush.Dispose();

    private void RollIfOver()
    {
        var now = DateTime.UtcNow;
        if (now - _windowStart >= Minute)
        {
            _windowStart = now;
            _logged = 0;
        }
    }
}
