import GPSReports

/// The events of one replay run (see ``Replay/events()``).
public struct ReplayEvents: AsyncSequence, Sendable {
    /// Each event is a report or a state change.
    public typealias Element = SourceEvent
    /// The stream never throws: failures arrive as `.state(.disconnected(error))`.
    public typealias Failure = Never

    let path: String
    let format: ReplayFormat?
    let pacing: ReplayPacing
    let clock: any Clock<Duration>
    let statistics: StatisticsBox

    /// Starts the run: the file is opened on the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(events: self)
    }

    /// Pulls reports from the worker one batch at a time and paces fixes.
    public struct Iterator: AsyncIteratorProtocol {
        /// Each event is a report or a state change.
        public typealias Element = SourceEvent
        /// The iterator never throws.
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

        /// The next event, waiting for its time under real-time pacing; `nil` after `.finished` or on cancellation.
        public mutating func next() async -> SourceEvent? {
            await next(isolation: nil)
        }

        /// The next event (see ``next()``), resumed on the caller's actor.
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
                        // Read to the end without finding a single sentence or point: not a log.
                        if statistics.decodedNothing { return .state(.disconnected(.notALog(events.path, statistics))) }
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
                        // Read to the end without finding a single sentence or point: not a log.
                        if statistics.decodedNothing { return .state(.disconnected(.notALog(events.path, statistics))) }
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
