import GeoTrackTesting
import GPSD
import GPSReports
import Synchronization

/// Consumes a source's events in a task of its own and keeps them in order,
/// so a test can wait for a condition with a deadline and then look at all of them.
final class EventRecorder: Sendable {
    private final class Storage: Sendable {
        let events = Mutex<[SourceEvent]>([])
    }

    private let storage = Storage()
    private let consumer: Task<Void, Never>

    init(_ stream: GPSDEvents) {
        let consumerStorage = storage
        consumer = Task {
            for await event in stream {
                consumerStorage.events.withLock { $0.append(event) }
            }
        }
    }

    /// Every event so far.
    var all: [SourceEvent] { storage.events.withLock { $0 } }

    /// Waits (up to `timeout`, for a real gpsd) until `condition` holds for the events so far.
    @discardableResult
    func wait(_ what: String, timeout: Duration = .seconds(30),
              until condition: @escaping ([SourceEvent]) -> Bool) async throws -> [SourceEvent] {
        let met = await waitUntil(timeout: timeout) { condition(self.all) }
        guard met else {
            throw HarnessError("timed out after \(timeout) waiting for \(what); events: \(Self.summary(all))")
        }
        return all
    }

    /// Waits (up to `timeout`) until no event has come for `quiet`, measured on the real clock
    /// from the last new event seen: gpsfake's pace, not the client's clock.
    func waitForQuiet(_ quiet: Duration, _ what: String, timeout: Duration = .seconds(30)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var count = all.count
        var since = clock.now
        while clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            let now = all.count
            if now != count {
                count = now
                since = clock.now
            } else if clock.now - since >= quiet {
                return
            }
        }
        throw HarnessError("timed out after \(timeout) waiting for \(what); events: \(Self.summary(all))")
    }

    /// Stops consuming, which ends the source's session.
    func stop() {
        consumer.cancel()
    }

    static func summary(_ events: [SourceEvent]) -> String {
        events.map { event in
            switch event {
            case .state(let state): "state(\(state))"
            case .report(.fix(let fix)): "fix(\(fix.time.map { "\($0.timeIntervalSince1970)" } ?? "-") \(fix.mode))"
            case .report(let report): "\(report)".prefix(30).description
            }
        }.joined(separator: ", ")
    }
}

extension Sequence where Element == SourceEvent {
    /// The fixes, in order.
    var fixes: [Fix] {
        compactMap { if case .report(.fix(let fix)) = $0 { fix } else { nil } }
    }

    /// The states, in order.
    var states: [SourceState] {
        compactMap { if case .state(let state) = $0 { state } else { nil } }
    }
}
