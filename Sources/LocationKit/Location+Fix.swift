import GPSReports

extension Location {
    /// The location a fix describes, or `nil` when the fix is not a position. The fix is kept
    /// whole in ``fix``.
    ///
    /// A fix with a latitude and longitude but no time is not a position: gpsd sends one while
    /// a receiver has not yet got the time from the satellites, and such a position cannot be
    /// ordered against others nor told stale. It is still reported raw (through
    /// ``LocationManagerDelegate/locationManager(_:didReceive:)``), as gpsd sent it.
    ///
    /// - Parameters:
    ///   - fix: the report, as the source sent it.
    ///   - sky: the latest sky view, for satellite counts and dilutions.
    ///   - sourceInformation: whether the fix was played back or came from a receiver.
    public init?(fix: Fix, sky: SkyView? = nil, sourceInformation: SourceInformation = SourceInformation()) {
        guard let coordinate = fix.coordinate, let time = fix.time else { return nil }
        let used = sky.map(\.used).flatMap { $0 > 0 ? $0 : nil }
        self.init(
            coordinate: coordinate, fix: fix, timestamp: time, sourceInformation: sourceInformation,
            gnss: GNSSDetail(
                fixMode: fix.mode, status: fix.status,
                satellitesUsed: used, satellitesSeen: sky?.seen,
                hdop: sky?.hdop, vdop: sky?.vdop, pdop: sky?.pdop,
                device: fix.device ?? sky?.device
            )
        )
    }
}
