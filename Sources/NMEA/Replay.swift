import GPSReports
import Synchronization

/// Replays an NMEA log or a GPX track as a location source: an async, paced stream of the
/// reports gpsd would have produced, with the same ``SourceEvent``s as a live gpsd connection.
///
/// Each call to ``events()`` starts a fresh run. Reading happens on a thread of its own and
/// only as fast as the consumer pulls, so memory stays bounded.
public struct Replay: Sendable {
    /// The file to replay ("-" for stdin).
    public let path: String
    /// The format, or `nil` to detect it from the content.
    public let format: ReplayFormat?
    /// How fast reports are delivered.
    public let pacing: ReplayPacing
    private let clock: any Clock<Duration>
    private let lastStatistics = StatisticsBox()

    /// Creates a replay of `path`; nothing is opened until ``events()`` is iterated.
    public init(path: String, format: ReplayFormat? = nil, pacing: ReplayPacing = .asFastAsPossible,
                clock: any Clock<Duration> = ContinuousClock()) {
        self.path = path
        self.format = format
        self.pacing = pacing
        self.clock = clock
    }

    /// A new run: `.connecting`, `.receiverPresent` once the file is open, the reports, then
    /// `.finished`; or `.disconnected(error)` then `.finished` when the file cannot be read.
    public func events() -> ReplayEvents {
        ReplayEvents(path: path, format: format, pacing: pacing, clock: clock, statistics: lastStatistics)
    }

    /// What the most recent run read and skipped; complete once it has finished.
    public var statistics: ReplayStatistics { lastStatistics.value }
}

/// Shares a run's statistics with the ``Replay`` that started it.
final class StatisticsBox: Sendable {
    private let storage = Mutex(ReplayStatistics())
    var value: ReplayStatistics {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// The events of one replay run (see ``Replay/events()``).
public struct ReplayEvents: AsyncSequence, Sendable {
    public typealias Element = SourceEvent
    public typealias Failure = Never

    let path: String
    let format: ReplayFormat?
    let pacing: ReplayPacing
    let clock: any Clock<Duration>
    let statistics: StatisticsBox

    public func makeAsyncIterator() -> Iterator {
        Iterator(events: self)
    }

    /// Pulls reports from the worker one batch at a time and paces fixes.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = SourceEvent
        public typealias Failure = Never

        private enum Phase {
            case initial, opening, running, finishing, done
        }

        /// Stops the worker thread when the last copy of the iterator goes away.
        private final class Owner {
            let worker: ReplayWorker
            init(worker: ReplayWorker) { self.worker = worker }
            deinit { worker.cancel() }
        }

        private let events: ReplayEvents
        private var owner: Owner?
        private var phase = Phase.initial
        private var buffer: [Report] = []
        private var index = 0
        private var pacer: (any ReplayPacer)?

        init(events: ReplayEvents) {
            self.events = events
            pacer = events.pacing.makePacer(clock: events.clock)
        }

        public mutating func next() async -> SourceEvent? {
            await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> SourceEvent? {
            while true {
                switch phase {
                case .initial:
                    owner = Owner(worker: ReplayWorker(path: events.path, format: events.format))
                    phase = .opening
                    return .state(.connecting)
                case .opening:
                    guard let worker = owner?.worker else { return finish() }
                    switch await worker.next() {
                    case .opened:
                        phase = .running
                        return .state(.receiverPresent)
                    case .failed(let error, let statistics):
                        events.statistics.value = statistics
                        phase = .finishing
                        return .state(.disconnected(error))
                    case .end(let statistics):
                        events.statistics.value = statistics
                        phase = .finishing
                    case .reports, .cancelled:
                        return finish()
                    }
                case .running:
                    if index < buffer.count {
                        let report = buffer[index]
                        index += 1
                        if var pacer, case .fix(let fix) = report, let time = fix.time {
                            do {
                                try await pacer.wait(forReceiverTime: time.timeIntervalSince1970)
                            } catch {
                                return finish()
                            }
                            self.pacer = pacer
                        }
                        if Task.isCancelled { return finish() }
                        return .report(report)
                    }
                    guard let worker = owner?.worker else { return finish() }
                    switch await worker.next() {
                    case .reports(let reports):
                        buffer = reports
                        index = 0
                    case .end(let statistics):
                        events.statistics.value = statistics
                        phase = .finishing
                    case .failed(let error, let statistics):
                        events.statistics.value = statistics
                        phase = .finishing
                        return .state(.disconnected(error))
                    case .opened, .cancelled:
                        return finish()
                    }
                case .finishing:
                    phase = .done
                    owner = nil
                    return .state(.finished)
                case .done:
                    return nil
                }
            }
        }

        private mutating func finish() -> SourceEvent? {
            phase = .done
            owner = nil
            buffer = []
            return nil
        }
    }
}
