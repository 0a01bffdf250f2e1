import GPSReports

extension Location {
    /// The location a fix describes, or `nil` when the fix is not a position. The fix is kept
    /// whole in ``fix``.
    ///
    /// - Parameter sky: the latest sky view, for satellite counts and dilutions.
    public init?(fix: Fix, sky: SkyView? = nil) {
        guard let coordinate = fix.coordinate, let time = fix.time else { return nil }
        let used = sky.map(\.used).flatMap { $0 > 0 ? $0 : nil }
        self.init(
            coordinate: coordinate, fix: fix, timestamp: time,
            gnss: GNSSDetail(
                fixMode: fix.mode, status: fix.status,
                satellitesUsed: used, satellitesSeen: sky.map(\.seen),
                hdop: sky?.hdop, vdop: sky?.vdop, pdop: sky?.pdop,
                device: fix.device ?? sky?.device
            )
        )
    }
}
