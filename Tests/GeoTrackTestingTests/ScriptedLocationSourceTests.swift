import GeoTrackTesting
import GPSReports
import Testing

@Suite struct ScriptedLocationSourceTests {
    @Test func waitsOnTheClockBetweenEvents() async throws {
        let clock = ManualClock()
        let origin = try #require(Coordinate(latitude: 1, longitude: 2))
        let source = ScriptedLocationSource.track([.synthetic(at: origin, second: 0), .synthetic(at: origin, second: 1)],
                                                  interval: .seconds(5), clock: clock)
        let run = Task { await source.events().firstElements(10) }
        await clock.sleepers(atLeast: 1)
        // Three events so far (two states and the first fix); the second fix waits for the clock.
        clock.advance(by: .seconds(5))
        let events = await run.value
        #expect(events.count == 4)
        #expect(events.first == .state(.connected))
        if case .report(.fix(let fix)) = events.last {
            #expect(fix.coordinate == origin)
        } else {
            Issue.record("the last event should be a fix")
        }
    }

    @Test func cancellationEndsTheSession() async {
        let clock = ManualClock()
        let source = ScriptedLocationSource([.state(.connected), .wait(.seconds(60)), .state(.receiverPresent)], clock: clock)
        let run = Task { await source.events().firstElements(10) }
        await clock.sleepers(atLeast: 1)
        run.cancel()
        #expect(await run.value == [.state(.connected)])
    }

    @Test func syntheticFixIsAPosition() throws {
        let origin = try #require(Coordinate(latitude: 45, longitude: 7))
        let moved = origin.offset(north: 1000, east: 0)
        #expect(abs(origin.distance(to: moved) - 1000) < 0.5)
        #expect(Fix.synthetic(at: origin).coordinate == origin)
    }
}
