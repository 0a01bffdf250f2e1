import Testing
import GeoTrackTesting

@Suite struct ManualClockTests {
    @Test func sleepEndsOnlyWhenTimeIsAdvancedPastItsDeadline() async throws {
        let clock = ManualClock()
        let woke = Task { try await clock.sleep(for: .seconds(5)); return clock.now.offset }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(4))
        #expect(clock.pendingSleeps == 1)
        clock.advance(by: .seconds(1))
        #expect(try await woke.value == .seconds(5))
        #expect(clock.pendingSleeps == 0)
    }

    @Test func cancellingASleepThrowsAndReleasesIt() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.sleepers(atLeast: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingSleeps == 0)
    }

    @Test func aDeadlineAlreadyPastReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(10))
        try await clock.sleep(until: .init(offset: .seconds(3)))
        #expect(clock.now.offset == .seconds(10))
    }
}
