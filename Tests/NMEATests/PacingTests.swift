import Foundation
import GeoTrackTesting
import GPSReports
import Synchronization
import Testing
@testable import NMEA

@Suite("Pacing and the async replay")
struct PacingTests {
    /// RMC fixes at 113258 … 113302: the replay reports 113259 to 113302, one second apart.
    private func fiveSeconds() throws -> String {
        try temporaryFile(log(rmc("113258"), rmc("113259"), rmc("113300"), rmc("113301"), rmc("113302")))
    }

    /// Collects the events of `replay` on a task, one at a time, so the test can step the clock.
    private final class Collector: Sendable {
        let events = Mutex<[SourceEvent]>([])
        let waiters = Mutex<[(Int, CheckedContinuation<Void, Never>)]>([])

        func append(_ event: SourceEvent) {
            let ready = events.withLock { e -> [CheckedContinuation<Void, Never>] in
                e.append(event)
                let count = e.count
                return waiters.withLock { w in
                    let ready = w.filter { $0.0 <= count }.map(\.1)
                    w.removeAll { $0.0 <= count }
                    return ready
                }
            }
            ready.forEach { $0.resume() }
        }

        /// Suspends until at least `count` events arrived.
        func wait(for count: Int) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = events.withLock { e in
                    if e.count >= count { return true }
                    waiters.withLock { $0.append((count, continuation)) }
                    return false
                }
                if ready { continuation.resume() }
            }
        }

        /// Advances `clock` by `duration` once something sleeps on it, then waits for `count` events.
        func step(_ clock: ManualClock, by duration: Duration, until count: Int) async {
            await clock.sleepers(atLeast: 1)
            clock.advance(by: duration)
            await wait(for: count)
        }

        /// Checks that event `count` does not come a millisecond before `duration` from when the
        /// clock's sleeper starts waiting, and then that it comes at `duration`.
        func expectDue(_ clock: ManualClock, after duration: Duration, bringing count: Int) async {
            await clock.sleepers(atLeast: 1)
            clock.advance(by: duration - .milliseconds(1))
            #expect(clock.pendingSleeps == 1)
            #expect(events.withLock { $0.count } == count - 1)
            clock.advance(by: .milliseconds(1))
            await wait(for: count)
        }

        var fixTimes: [Double] {
            events.withLock { $0.compactMap { if case .report(.fix(let f)) = $0 { f.time?.timeIntervalSince1970 } else { nil } } }
        }
    }

    /// Replays `path` at `speed` on `clock`, collecting its events on a task.
    private func play(_ path: String, speed: Double, clock: ManualClock) -> (Collector, Task<Void, Never>) {
        let replay = Replay(path: path, pacing: .realTime(speed: speed), clock: clock)
        let collector = Collector()
        let task = Task {
            for await event in replay.events() { collector.append(event) }
        }
        return (collector, task)
    }

    @Test("real time at twice the speed: each fix is due start + (t - first) / 2")
    func realTime() async throws {
        let path = try fiveSeconds()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = ManualClock()
        let (collector, task) = play(path, speed: 2, clock: clock)
        // connecting, receiverPresent, and the first fix at once.
        await collector.wait(for: 3)
        #expect(collector.fixTimes.count == 1)
        await collector.expectDue(clock, after: .milliseconds(500), bringing: 4)
        #expect(collector.fixTimes.count == 2)
        // Fix 3 is due at 1.0 s; deliver it late, at 1.3 s. Fix 4 stays due at 1.5 s from the
        // start (a pacer that slept 0.5 s after each fix would drift to 1.8 s).
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(800))
        await collector.wait(for: 5)
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(199))
        #expect(clock.pendingSleeps == 1)
        #expect(collector.fixTimes.count == 3)
        clock.advance(by: .milliseconds(1))
        await task.value
        let events = collector.events.withLock { $0 }
        #expect(collector.fixTimes.count == 4)
        #expect(events.first == .state(.connecting))
        #expect(events.dropFirst().first == .state(.receiverPresent))
        #expect(events.last == .state(.finished))
        #expect(clock.now.offset == .milliseconds(1500))
    }

    @Test("a jump of days in the log plays one second later, and a step back in time at once", .timeLimit(.minutes(5)))
    func breaks() async throws {
        // A receiver that restarts: its date jumps a week ahead; later its time steps back 5 min.
        func fix(_ time: String, _ date: String) -> String {
            "$GPRMC,\(time),A,3238.9148,N,10822.4466,W,005.3,247.1,\(date),009.3,E"
        }
        let path = try temporaryFile(log(fix("113258", "181022"), fix("113259", "181022"), fix("113300", "181022"),
                                         fix("113301", "251022"), fix("113302", "251022"),
                                         fix("112802", "251022"), fix("112803", "251022")))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = ManualClock()
        let (collector, task) = play(path, speed: 1, clock: clock)
        await collector.wait(for: 3)
        await collector.step(clock, by: .seconds(1), until: 4)
        // The fix a week later is due one second after the last, not a week.
        await collector.expectDue(clock, after: .seconds(1), bringing: 5)
        // 113302, then 112802 (five minutes back) at once.
        await collector.step(clock, by: .seconds(1), until: 7)
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(1))
        await task.value
        let week = 7.0 * 86_400
        let first = collector.fixTimes.first ?? 0
        #expect(collector.fixTimes.map { $0 - first } == [0, 1, week + 2, week + 3, week - 297, week - 296])
        #expect(clock.now.offset == .seconds(4))
    }

    @Test("as fast as possible never waits on the clock")
    func fast() async throws {
        let path = try fiveSeconds()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = ManualClock()
        let replay = Replay(path: path, clock: clock)
        var events: [SourceEvent] = []
        for await event in replay.events() { events.append(event) }
        #expect(events.count == 2 + 4 + 1)
        #expect(clock.pendingSleeps == 0)
        #expect(replay.statistics.sentences == 5)
        #expect(replay.statistics.decoded == 5)
    }

    @Test("a missing file: disconnected with the error, then finished")
    func missingFile() async {
        let replay = Replay(path: "/nonexistent/track.gpx")
        var events: [SourceEvent] = []
        for await event in replay.events() { events.append(event) }
        #expect(events.count == 3)
        #expect(events.first == .state(.connecting))
        guard case .state(.disconnected(let error)) = events[1] else {
            Issue.record("expected disconnected, got \(events[1])")
            return
        }
        #expect(error.code == .unreadableFile)
        #expect(events.last == .state(.finished))
    }

    @Test("cancelling the consumer ends the stream")
    func cancellation() async throws {
        let path = try fiveSeconds()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = ManualClock()
        let (collector, task) = play(path, speed: 1, clock: clock)
        await collector.wait(for: 3)
        await clock.sleepers(atLeast: 1)
        task.cancel()
        await task.value
        #expect(collector.fixTimes.count == 1)
        #expect(clock.pendingSleeps == 0)
    }
}
