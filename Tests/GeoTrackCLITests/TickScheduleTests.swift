import GPSReports
import GeoTrackTesting
import Glibc
import Synchronization
import Testing
@testable import GeoTrackCLI

@Suite("Tick schedule: the outputs' timer runs only when something is due")
struct TickScheduleTests {
    /// What the timer asks and does, driven by the test.
    final class Outputs: Sendable {
        let due = Mutex<Double?>(nil)
        let ticks: AsyncStream<Void>
        private let ticked: AsyncStream<Void>.Continuation

        init() {
            (ticks, ticked) = AsyncStream.makeStream()
        }

        /// A tick does what was due: nothing is due afterwards.
        func tick() {
            due.withLock { $0 = nil }
            ticked.yield()
        }
    }

    @Test("an update that makes something due wakes the parked timer, which sleeps exactly that long, once")
    func wakesForWhatIsDue() async {
        let clock = ManualClock()
        let schedule = TickSchedule()
        let outputs = Outputs()
        let timer = Task { await schedule.run(clock: clock, due: { outputs.due.withLock { $0 } }, tick: { outputs.tick() }) }
        var ticks = outputs.ticks.makeAsyncIterator()

        // An update with nothing due does not start a sleep; one with a line held back does.
        schedule.updated { outputs.due.withLock { $0 } }
        outputs.due.withLock { $0 = 0.5 }
        schedule.updated { outputs.due.withLock { $0 } }
        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingSleeps == 1)
        clock.advance(by: .milliseconds(499))
        #expect(clock.pendingSleeps == 1)
        clock.advance(by: .milliseconds(1))
        _ = await ticks.next()

        // Idle again: the next sleep starts only when the next update makes something due.
        outputs.due.withLock { $0 = 1 }
        schedule.updated { outputs.due.withLock { $0 } }
        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingSleeps == 1)
        clock.advance(by: .seconds(1))
        _ = await ticks.next()
        #expect(clock.now.offset == .seconds(1.5))

        timer.cancel()
        await timer.value
        #expect(clock.pendingSleeps == 0)
    }

    @Test("cancelling the run ends a timer that sleeps, and finish ends one that is parked")
    func ends() async {
        let clock = ManualClock()
        let outputs = Outputs()
        let sleeping = TickSchedule()
        outputs.due.withLock { $0 = 30 }
        let first = Task { await sleeping.run(clock: clock, due: { outputs.due.withLock { $0 } }, tick: { outputs.tick() }) }
        await clock.sleepers(atLeast: 1)
        first.cancel()
        await first.value
        #expect(clock.pendingSleeps == 0)

        outputs.due.withLock { $0 = nil }
        let parked = TickSchedule()
        let second = Task { await parked.run(clock: clock, due: { outputs.due.withLock { $0 } }, tick: { outputs.tick() }) }
        parked.finish()
        await second.value
    }
}

@Suite("Tracker outputs' timer: a countdown goes on after SIGCONT")
struct TrackerOutputTimerTests {
    @Test("stopped (SIGTSTP) nothing is due; after SIGCONT the countdown's timer is armed again", .timeLimit(.minutes(5)))
    func countdownResumes() async {
        let clock = ManualClock()
        let (read, write) = Self.pipe()
        defer { close(read) }
        let display = StatusDisplay(mode: .terminal, options: RenderOptions(), descriptor: write, width: { 80 },
                                    now: { clock.now.offset.inSeconds })
        let output = TrackerOutput(display: display, stopAfter: nil)
        let timer = Task { await output.runTimer(clock: clock) }

        _ = try? output.handle(.status(.unreachable(SourceError(.io, message: "refused"), retryingIn: .seconds(3))))
        await clock.sleepers(atLeast: 1)
        display.suspend()
        #expect(output.nextTick == nil)
        clock.advance(by: .seconds(1))
        // The timer found the display stopped and parked; SIGCONT must arm it for the next second.
        output.resume()
        await clock.sleepers(atLeast: 1)
        #expect(output.nextTick == 1)

        timer.cancel()
        await timer.value
        display.finish()
        close(write)
    }

    static func pipe() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        _ = Glibc.pipe(&fds)
        return (fds[0], fds[1])
    }
}
