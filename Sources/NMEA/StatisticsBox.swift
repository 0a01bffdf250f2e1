import Synchronization

/// Shares a run's statistics with the ``Replay`` that started it.
final class StatisticsBox: Sendable {
    private let storage = Mutex(ReplayStatistics())
    var value: ReplayStatistics {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
