import FoundationEssentials
import GPSReports
import LocationKit

extension OwnTracksLocation {
    /// The message for a location: what the location knows, rounded as OwnTracks rounds it.
    /// - Parameters:
    ///   - location: the location the message reports.
    ///   - trackerID: the two characters shown on maps.
    ///   - regions: the regions the device is in now.
    ///   - createdAt: the time the message is made (seconds since 1970).
    ///
    /// As the booklet says the apps do (json.md: "The `acc`, `alt`, `cog`, `vac`, `vel` elements
    /// are only added if they are not zero"), each of those is left out when it rounds to 0; and
    /// only where it means something: `cog` only while moving (a course at a standstill is the
    /// receiver's noise), `vac` only with the `alt` it qualifies.
    public init(_ location: Location, trackerID: String?, regions: [String] = [], createdAt: Int? = nil) {
        let altitude = location.altitude.flatMap { OwnTracksNumber.whole($0) }.flatMap(Self.nonzero)
        let velocity = location.speed.flatMap { OwnTracksNumber.whole($0 * 3.6) }.flatMap(Self.nonzero)
        self.init(latitude: Self.nanodegrees(location.coordinate.latitude),
                  longitude: Self.nanodegrees(location.coordinate.longitude),
                  timestamp: Self.seconds(location.timestamp),
                  accuracy: location.horizontalAccuracy.flatMap { OwnTracksNumber.whole($0) }.flatMap(Self.nonzero),
                  altitude: altitude,
                  verticalAccuracy: altitude == nil ? nil
                      : location.verticalAccuracy.flatMap { OwnTracksNumber.whole($0) }.flatMap(Self.nonzero),
                  velocity: velocity,
                  course: velocity == nil ? nil
                      : location.course.flatMap { OwnTracksNumber.whole($0) }.map { $0 % 360 }.flatMap(Self.nonzero),
                  trackerID: trackerID, trigger: "t",
                  regions: regions.isEmpty ? nil : regions.sorted(), createdAt: createdAt)
    }

    private static func nonzero(_ value: Int) -> Int? {
        value == 0 ? nil : value
    }

    /// A time as OwnTracks' `tst`: whole seconds since 1970, rounded down (0 for a time no
    /// clock gives, rather than a trap).
    public static func seconds(_ date: Date) -> Int {
        OwnTracksNumber.whole(date.timeIntervalSince1970, rounding: .down) ?? 0
    }

    /// A latitude or longitude as locations and transitions send it: gpsd's precision (9
    /// decimals, 0.1 mm) and gpsd's rounding (`FixedPoint`), so the message says what the
    /// TPV says to the last digit, nothing a receiver knows is lost, and no binary residue
    /// (…66666669) is sent.
    public static func nanodegrees(_ degrees: Double) -> Double {
        FixedPoint.rounded(degrees, decimals: 9)
    }
}
