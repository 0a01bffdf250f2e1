import GPSReports

extension LocationManager {
    /// How far the device must move from the last significant-change location, in metres (500,
    /// as in CoreLocation).
    public static let significantChangeDistance: Double = 500
    /// The least time between two significant-change locations, on the fixes' clock (five
    /// minutes, as in CoreLocation).
    public static let significantChangeInterval: Duration = .seconds(300)

    /// Starts delivering a location to ``LocationManagerDelegate/locationManager(_:didUpdateLocations:)``
    /// only when the device has moved ``significantChangeDistance`` since the last one, and no
    /// sooner than ``significantChangeInterval`` after it; the first location comes at once.
    ///
    /// Unlike on iOS this saves no power (the receiver reports as often either way) and does
    /// not relaunch a program; it saves the program the work. While
    /// ``startUpdatingLocation()`` runs, its updates are delivered instead.
    public func startMonitoringSignificantLocationChanges() {
        sourceFinished = false
        monitoringSignificantChanges = true
        lastSignificantLocation = nil
        reportIfNotAuthorized()
        reconcileSource()
    }

    /// Stops significant-change monitoring.
    public func stopMonitoringSignificantLocationChanges() {
        monitoringSignificantChanges = false
        lastSignificantLocation = nil
        reconcileSource()
    }

    /// Whether the manager can monitor `regionClass`, like CoreLocation's class method: circular
    /// regions always can (gpsd or a replay is the only thing needed, not a particular device).
    public static func isMonitoringAvailable(for regionClass: CircularRegion.Type) -> Bool {
        true
    }

    /// Whether significant-change monitoring is available: always, as its locations come from
    /// the same source as every other.
    public static func significantLocationChangeMonitoringAvailable() -> Bool {
        true
    }

    func deliverSignificantChange(_ location: Location) {
        if let last = lastSignificantLocation {
            guard last.distance(from: location) >= Self.significantChangeDistance,
                  location.timestamp.timeIntervalSince(last.timestamp) >= Self.significantChangeInterval / .seconds(1)
            else { return }
        }
        lastSignificantLocation = location
        deliver(location)
    }
}
