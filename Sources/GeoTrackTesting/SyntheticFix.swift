import Foundation
import GPSReports

extension Coordinate {
    /// The coordinate `north` metres north and `east` metres east of this one
    /// (flat-earth approximation, good to centimetres over a few kilometres).
    public func offset(north: Double, east: Double) -> Coordinate {
        let metresPerDegree = 6_371_008.8 * .pi / 180
        let latitude = self.latitude + north / metresPerDegree
        // Across the 180th meridian the longitude comes round to the other side.
        let longitude = Coordinate.normalizedLongitude(self.longitude + east / (metresPerDegree * cos(self.latitude * .pi / 180)))
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

extension Fix {
    /// A boat from 10 km west of `meridian` (at 16.5°S) sailing east at 4 m/s, anchored 12
    /// minutes on it (swinging 10 m either side), then sailing on 10 km: a fix every 10 s.
    /// Across 180° it is the passage that sums up, and is drawn, as the one across 170°.
    public static func passage(across meridian: Double) -> [Fix] {
        guard let anchorage = Coordinate(latitude: -16.5, longitude: Coordinate.normalizedLongitude(meridian)) else { return [] }
        var fixes: [Fix] = []
        var second = 0.0
        func add(_ east: Double, speed: Double) {
            fixes.append(.synthetic(at: anchorage.offset(north: 0, east: east), second: second, speed: speed, course: 90))
            second += 10
        }
        for step in 0...250 { add(-10_000 + Double(step) * 40, speed: 4) }
        for step in 0..<72 { add(step % 2 == 0 ? -10 : 10, speed: 0) }
        for step in 1...250 { add(Double(step) * 40, speed: 4) }
        return fixes
    }
}
