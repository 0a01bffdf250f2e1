extension LocationManager {
    /// Starts monitoring `region` for entry and exit; a region with the same identifier is replaced.
    ///
    /// Reports ``LocationManagerDelegate/locationManager(_:didStartMonitoringFor:)``, or
    /// ``LocationManagerDelegate/locationManager(_:monitoringDidFailFor:withError:)`` when the
    /// radius is not a positive finite number up to ``maximumRegionMonitoringDistance`` or when
    /// location access is denied. The first decisive fix reports the region's state.
    public func startMonitoring(for region: CircularRegion) {
        guard region.radius.isFinite, region.radius > 0, region.radius <= maximumRegionMonitoringDistance else {
            let reason = "the radius must be greater than 0 and at most \(Int(maximumRegionMonitoringDistance)) m (got \(region.radius))"
            receiver?.locationManager(self, monitoringDidFailFor: region,
                                      withError: .regionMonitoringFailed(identifier: region.identifier, reason: reason))
            return
        }
        switch authorizationStatus {
        case .denied:
            receiver?.locationManager(self, monitoringDidFailFor: region, withError: .denied)
            return
        case .restricted:
            receiver?.locationManager(self, monitoringDidFailFor: region,
                                      withError: .restricted(policyPath: authorizationStore.policyPath))
            return
        case .notDetermined, .authorizedWhenInUse, .authorizedAlways:
            break
        }
        regionTrackers[region.identifier] = RegionTracker(region: region)
        receiver?.locationManager(self, didStartMonitoringFor: region)
        sourceFinished = false
        reconcileSource()
    }

    /// Stops monitoring the region with `region`'s identifier.
    public func stopMonitoring(for region: CircularRegion) {
        regionTrackers[region.identifier] = nil
        reconcileSource()
    }

    /// Reports `region`'s current state through
    /// ``LocationManagerDelegate/locationManager(_:didDetermineState:for:)``, right away.
    ///
    /// For a monitored region this is the hysteresis-filtered state; for another region,
    /// whether the latest fix lies within it; ``RegionState/unknown`` without a fix.
    public func requestState(for region: CircularRegion) {
        let state: RegionState
        if let tracker = regionTrackers[region.identifier] {
            state = tracker.state
        } else if let location = latestReceivedLocation, !location.isStale, authorizationStatus.isAuthorized,
                  location.horizontalAccuracy ?? 0 < region.radius {
            // As for a monitored region, a location no more accurate than the radius (an
            // approximate one, say) decides nothing.
            state = region.contains(location.coordinate) ? .inside : .outside
        } else {
            state = .unknown
        }
        receiver?.locationManager(self, didDetermineState: state, for: region)
    }

    func updateRegions(with location: Location) {
        for identifier in regionTrackers.keys.sorted() {
            guard var tracker = regionTrackers[identifier] else { continue }
            let transition = tracker.update(with: location)
            regionTrackers[identifier] = tracker
            let region = tracker.region
            switch transition {
            case .determined(let state):
                receiver?.locationManager(self, didDetermineState: state, for: region)
            case .entered:
                receiver?.locationManager(self, didDetermineState: .inside, for: region)
                if region.notifyOnEntry { receiver?.locationManager(self, didEnterRegion: region) }
            case .exited:
                receiver?.locationManager(self, didDetermineState: .outside, for: region)
                if region.notifyOnExit { receiver?.locationManager(self, didExitRegion: region) }
            case nil:
                break
            }
        }
    }
}
