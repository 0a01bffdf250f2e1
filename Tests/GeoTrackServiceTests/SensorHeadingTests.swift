import Foundation
import GeoTrackService
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

/// The heading the service shows from a heading sensor (NMEA HDT, HDG, THS; gpsd's ATT), fix
/// after fix, while the boat's course over ground is another.
@MainActor
@Suite struct SensorHeadingTests {
    /// A sensor's reading at `second` of the synthetic fixes' clock.
    static func attitude(second: Int, source: String, heading: Double? = nil, magnetic: Double? = nil,
                         variation: Double? = nil) -> ScriptedLocationSource.Step {
        var attitude = Attitude(time: Date(timeIntervalSince1970: 1_735_689_600 + Double(second)), heading: heading, magneticHeading: magnetic)
        attitude.magneticVariation = variation
        attitude.source = source
        return .event(.report(.attitude(attitude)))
    }

    /// A fix each second, moving east at 6 m/s (course 90°), after the sensor readings of that second.
    static func passage(seconds: Int, readings: (Int) -> [ScriptedLocationSource.Step]) -> [ScriptedLocationSource.Step] {
        var steps: [ScriptedLocationSource.Step] = [.state(.connected), .state(.receiverPresent)]
        for second in 0..<seconds {
            steps += readings(second)
            steps.append(.fix(Fix.synthetic(at: ServiceHarness.origin.offset(north: 0, east: Double(second) * 6), second: Double(second),
                                            accuracy: 4, altitude: 2, speed: 6, course: 90)))
        }
        return steps + [.wait(.seconds(3600))]
    }

    /// The heading shown with the fix of `second`.
    static func shown(at second: Int, by service: GeolocationService) async -> Heading?? {
        let time = Date(timeIntervalSince1970: 1_735_689_600 + Double(second))
        let status = await service.status.firstMatching { if case .fix(let location, _) = $0 { location.timestamp == time } else { false } }
        guard case .fix(_, let heading)? = status else { return nil }
        return .some(heading)
    }

    @Test("a steady sensor heading stays shown for as long as the sensor reports it, not the course over ground once the last heading delivered is older than the sensor validity")
    func steadyHeadingStays() async throws {
        let harness = try ServiceHarness(status: .authorizedWhenInUse) { _ in
            Self.passage(seconds: 15) { [Self.attitude(second: $0, source: "HDT", heading: 45)] }
        }
        // The manager delivers the first reading; the next ones are within its headingFilter.
        #expect(harness.manager.headingFilter > 0)
        let service = GeolocationService(manager: harness.manager)
        let last = try #require(await Self.shown(at: 14, by: service), "no fix status for the last second")
        #expect(last?.source == .sensor("HDT") && last?.trueHeading == 45, "\(String(describing: last))")
        // Its magnetic heading too, as CoreLocation gives both, from the fix's variation (gpsd's
        // model): the first reading came before the first fix, and the next is delivered for it.
        let variation = MagneticModel.declination(latitude: ServiceHarness.origin.latitude, longitude: ServiceHarness.origin.longitude + 0.001)
        #expect(abs((last?.magneticHeading ?? .nan) - (45 - variation)) < 0.05, "\(String(describing: last))")
    }

    @Test("a magnetic compass (HDG) is shown as the true heading its variation makes, the sentence's own or else the model's; before any fix, as magnetic")
    func compassGivesTrueHeading() async throws {
        let withVariation = try ServiceHarness(status: .authorizedWhenInUse) { _ in
            Self.passage(seconds: 3) { [Self.attitude(second: $0, source: "HDG", magnetic: 100, variation: -15)] }
        }
        let service = GeolocationService(manager: withVariation.manager)
        // The sentence's own variation needs no fix: the first reading is true already.
        let first = try #require(await Self.shown(at: 0, by: service))
        #expect(first?.trueHeading == 85, "\(String(describing: first))")
        let shown = try #require(await Self.shown(at: 2, by: service))
        #expect(shown?.trueHeading == 85 && shown?.magneticHeading == 100 && shown?.source == .sensor("HDG"), "\(String(describing: shown))")

        let withoutVariation = try ServiceHarness(status: .authorizedWhenInUse) { _ in
            Self.passage(seconds: 3) { [Self.attitude(second: $0, source: "HDG", magnetic: 100)] }
        }
        let other = GeolocationService(manager: withoutVariation.manager)
        // Without it, the first reading came before any fix, so only the magnetic heading was known.
        let magneticOnly = try #require(await Self.shown(at: 0, by: other))
        #expect(magneticOnly?.trueHeading == nil && magneticOnly?.magneticHeading == 100, "\(String(describing: magneticOnly))")
        let modelled = try #require(await Self.shown(at: 2, by: other))
        let variation = MagneticModel.declination(latitude: ServiceHarness.origin.latitude, longitude: ServiceHarness.origin.longitude)
        #expect(abs(variation) > 1, "Stockholm's declination should tell the two apart: \(variation)")
        #expect(abs((modelled?.trueHeading ?? .nan) - (100 + variation)) < 0.05 && modelled?.magneticHeading == 100,
                "\(String(describing: modelled))")
    }

    @Test("without a sensor, the course heading's magnetic value is the course less the variation (east positive), as a compass would read it")
    func courseHeadingMagnetic() async throws {
        let harness = try ServiceHarness(status: .authorizedWhenInUse) { _ in Self.passage(seconds: 3) { _ in [] } }
        let service = GeolocationService(manager: harness.manager)
        let shown = try #require(await Self.shown(at: 2, by: service))
        let variation = MagneticModel.declination(latitude: ServiceHarness.origin.latitude,
                                                  longitude: ServiceHarness.origin.longitude + 2 * 6 / 111_320 / cos(ServiceHarness.origin.latitude * .pi / 180))
        #expect(variation > 1, "Stockholm's declination is east: \(variation)")
        #expect(shown?.source == .courseOverGround && shown?.trueHeading == 90, "\(String(describing: shown))")
        #expect(abs((shown?.magneticHeading ?? .nan) - (90 - variation)) < 0.05, "\(String(describing: shown)) variation \(variation)")
    }

    @Test("with a true-north sensor and a magnetic compass both reporting, the true-north sensor is shown, not each in turn")
    func trueNorthSensorWins() async throws {
        let harness = try ServiceHarness(status: .authorizedWhenInUse) { _ in
            Self.passage(seconds: 4) {
                [Self.attitude(second: $0, source: "HDT", heading: 45), Self.attitude(second: $0, source: "HDG", magnetic: 43.5, variation: -1.5)]
            }
        }
        let service = GeolocationService(manager: harness.manager)
        for second in 1..<4 {
            let shown = try #require(await Self.shown(at: second, by: service))
            #expect(shown?.source == .sensor("HDT") && shown?.trueHeading == 45, "second \(second): \(String(describing: shown))")
        }
    }
}
