import Foundation
import GPSReports

extension Coordinate {
    /// The coordinate `north` metres north and `east` metres east of this one
    /// (flat-earth approximation, good to centimetres over a few kilometres).
    public func offset(north: Double, east: Double) -> Coordinate {
        let metresPerDegree = 6_371_008.8 * .pi / 180
        let latitude = self.latitude + north / metresPerDegree
        let longitude = self.longitude + east / (metresPerDegree * cos(self.latitude * .pi / 180))
        return Coordinate(latitude: latitude, longitude: longitude) ?? self
    }
}

extension Fix {
    /// A 3D fix at `coordinate` for tests and examples.
    ///
    /// - Parameters:
    ///   - time: the fix time; defaults to 2025-01-01T00:00:00Z plus `second` seconds.
    ///   - accuracy: the horizontal error (`eph`) in metres, or `nil` when unknown.
    public static func synthetic(at coordinate: Coordinate, second: Double = 0, time: Date? = nil,
                                 accuracy: Double? = 5, altitude: Double? = 100,
                                 speed: Double? = nil, course: Double? = nil, device: String? = "/dev/ttyTEST") -> Fix {
        var fix = Fix(mode: .threeD, time: time ?? Date(timeIntervalSince1970: 1_735_689_600 + second), device: device)
        fix.status = .gps
        fix.latitude = coordinate.latitude
        fix.longitude = coordinate.longitude
        fix.altitudeMSL = altitude
        fix.altitudeHAE = altitude.map { $0 + 47 }
        fix.eph = accuracy
        fix.epv = accuracy.map { $0 * 1.5 }
        fix.speed = speed
        fix.track = course
        return fix
    }
}
