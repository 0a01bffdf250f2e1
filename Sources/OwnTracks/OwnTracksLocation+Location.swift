import LocationKit

extension OwnTracksLocation {
    /// The message for a location: what the location knows, rounded as OwnTracks rounds it.
    /// - Parameters:
    ///   - trackerID: the two characters shown on maps.
    ///   - regions: the regions the device is in now.
    ///   - createdAt: the time the message is made (seconds since 1970).
    public init(_ location: Location, trackerID: String?, regions: [String] = [], createdAt: Int? = nil) {
        self.init(latitude: Self.nanodegrees(location.coordinate.latitude),
                  longitude: Self.nanodegrees(location.coordinate.longitude),
                  timestamp: Int(location.timestamp.timeIntervalSince1970.rounded(.down)),
                  accuracy: location.horizontalAccuracy.flatMap { OwnTracksNumber.whole($0) },
                  altitude: location.altitude.flatMap { OwnTracksNumber.whole($0) },
                  verticalAccuracy: location.verticalAccuracy.flatMap { OwnTracksNumber.whole($0) },
                  velocity: location.speed.flatMap { OwnTracksNumber.whole($0 * 3.6) },
                  course: location.course.flatMap { OwnTracksNumber.whole($0) }.map { $0 % 360 },
                  trackerID: trackerID, trigger: "t",
                  regions: regions.isEmpty ? nil : regions.sorted(), createdAt: createdAt)
    }

    // gpsd's precision (9 decimals, 0.1 mm): nothing a receiver knows is lost, and no binary
    // residue (…66666669) is sent.
    private static func nanodegrees(_ degrees: Double) -> Double {
        (degrees * 1e9).rounded() / 1e9
    }
}
