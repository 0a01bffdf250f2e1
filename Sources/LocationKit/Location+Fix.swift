import GPSReports

extension Location {
    /// The location a fix describes, or `nil` when the fix is not a position.
    ///
    /// - Parameter sky: the latest sky view, for satellite counts and dilutions.
    public init?(fix: Fix, sky: SkyView? = nil) {
        guard let coordinate = fix.coordinate, let time = fix.time else { return nil }
        let altitude: Double? = fix.mode == .threeD ? fix.altitudeMSL : nil
        let ellipsoidal: Double? = fix.mode == .threeD ? fix.altitudeHAE : nil
        let used = sky.map(\.used).flatMap { $0 > 0 ? $0 : nil }
        self.init(
            coordinate: coordinate,
            altitude: altitude,
            ellipsoidalAltitude: ellipsoidal,
            horizontalAccuracy: fix.eph ?? Self.combined(fix.epx, fix.epy),
            verticalAccuracy: fix.mode == .threeD ? fix.epv : nil,
            speed: fix.speed,
            speedAccuracy: fix.eps,
            course: fix.track,
            courseAccuracy: fix.epd,
            timestamp: time,
            gnss: GNSSDetail(
                fixMode: fix.mode, status: fix.status,
                satellitesUsed: used, satellitesSeen: sky.map(\.seen),
                hdop: sky?.hdop, vdop: sky?.vdop, pdop: sky?.pdop,
                device: fix.device ?? sky?.device
            )
        )
    }

    /// A horizontal error from the latitude and longitude errors, when gpsd gives no `eph`.
    private static func combined(_ epx: Double?, _ epy: Double?) -> Double? {
        guard let x = Measurement.nonNegative(epx), let y = Measurement.nonNegative(epy) else { return nil }
        return (x * x + y * y).squareRoot()
    }
}
