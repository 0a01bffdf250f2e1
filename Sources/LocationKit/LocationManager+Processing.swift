import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

extension LocationManager {
    /// Handles one event from the source.
    func handle(_ event: SourceEvent) {
        switch event {
        case .state(let state):
            handle(state)
        case .report(.fix(let received)):
            guard follows(received.device, givesPosition: received.hasPosition) else { return }
            // Under approximate access the precise fix goes no further than this line: every
            // report, location, heading, region and visit below starts from the approximate one.
            let fix = accuracyAuthorization == .reducedAccuracy ? ApproximateLocation.reduce(received) : received
            reportRaw(.fix(fix))
            handle(fix)
        case .report(.sky(let sky)):
            guard follows(sky.device, givesPosition: false) else { return }
            reportRaw(.sky(sky))
            lastSky = sky
            if let device = sky.device {
                // gpsd names its receivers; a peer naming ever new ones cannot grow this unbounded.
                if skiesByDevice[device] == nil, skiesByDevice.count >= Self.maximumSkyDevices { skiesByDevice.removeAll() }
                skiesByDevice[device] = sky
            }
            locationServicesEnabled = true
            showSatelliteCounts(of: skyForReceiverStatus(latest: sky))
        case .report(.attitude(let attitude)):
            guard follows(attitude.device, givesPosition: false) else { return }
            reportRaw(.attitude(attitude))
            handle(attitude)
        case .report(.devices(let devices)):
            reportRaw(.devices(devices))
            locationServicesEnabled = !devices.isEmpty
            // gpsd lists its receivers again (a reconnection): one no longer there is followed no more.
            let paths = Set(devices.map(\.path))
            if let followed = receiverStatus.receiver, !paths.contains(followed) { stopFollowing() }
        case .report(.deviceAdded(let device)):
            reportRaw(.deviceAdded(device))
            locationServicesEnabled = true
        case .report(.deviceRemoved(let device)):
            reportRaw(.deviceRemoved(device))
            // The followed receiver is gone: the next to give a position is followed instead.
            if device.path == receiverStatus.receiver { stopFollowing() }
            // A receiver unplugged no longer counts towards the satellites the status shows.
            if skiesByDevice.removeValue(forKey: device.path) != nil, let best = bestSky() { showSatelliteCounts(of: best) }
        case .report(.noise(let noise)):
            guard follows(noise.device, givesPosition: false) else { return }
            // The receiver's error statistics: passed on as they came (they hold no position).
            reportRaw(.noise(noise))
        case .report(.version):
            break
        }
    }

    func handle(_ state: SourceState) {
        switch state {
        case .receiverPresent:
            locationServicesEnabled = true
            reportedSourceError = nil
        case .receiverAbsent, .retrying, .finished:
            locationServicesEnabled = false
        case .disconnected(let error):
            locationServicesEnabled = false
            // Without a connection nothing reports the present, however long the outage: the
            // last fix is as stale as after a silence, and says so until a new one comes.
            markLocationsStale()
            // Nor the sky: a fix after the reconnection takes the satellites and dilutions of a
            // SKY sent since, or none, never those of the session that ended.
            lastSky = nil
            skiesByDevice.removeAll()
            // Whoever reads the source is told why it failed: updates, a one-shot request, and
            // equally a `liveUpdates` loop, regions, visits or significant changes alone, whose
            // users would otherwise learn nothing but an update without a location.
            if needsSource, error != reportedSourceError {
                reportedSourceError = error
                report(.source(error))
            }
        case .stale:
            // The last fix no longer describes the present: say so instead of showing it as current.
            markLocationsStale()
        case .connected:
            reportedSourceError = nil
        case .connecting:
            break
        }
        let lostFix: Bool = if case .disconnected = state { latestReceivedLocation != nil } else { false }
        updateReceiverStatus {
            $0.sourceState = state
            // A fix from before a lost connection no longer describes the present either: a gpsd
            // restarted at once answers before the stale watchdog could say so, and its receiver
            // may not have reported yet. The receiver's next position makes it current again.
            if state == .stale || lostFix { $0.isStale = true }
            if case .disconnected = state {
                $0.satellitesSeen = 0
                $0.satellitesUsed = 0
                // Nor which receiver is followed: gpsd may come back with others on the same
                // paths (USB ports renumbered at a restart); the first to give a position then is.
                $0.receiver = nil
                $0.otherReceivers = []
            }
        }
    }

    /// Whether a report from `device` goes on: one source, one receiver. The first receiver to
    /// give a position is followed; another's reports are set aside from then on (and named in
    /// ``ReceiverStatus/otherReceivers``), so that a second receiver without a fix cannot hide
    /// the first one's, nor two receivers' positions make one track. Before any position, every
    /// receiver's reports go on (the status is "searching" with the best sky), and a report
    /// naming no receiver always does.
    private func follows(_ device: String?, givesPosition: Bool) -> Bool {
        guard let device else { return true }
        guard let followed = receiverStatus.receiver else {
            if givesPosition {
                // The sky views of the others no longer count towards the satellites shown.
                skiesByDevice = skiesByDevice.filter { $0.key == device }
                let own = skiesByDevice[device]
                if let other = lastSky?.device, other != device { lastSky = own }
                // One change of status: the receiver followed, with its own satellites.
                updateReceiverStatus {
                    $0.receiver = device
                    if let own { ($0.satellitesSeen, $0.satellitesUsed) = (own.seen, own.used) }
                }
            }
            return true
        }
        if device == followed { return true }
        if !receiverStatus.otherReceivers.contains(device), receiverStatus.otherReceivers.count < Self.maximumSkyDevices {
            updateReceiverStatus { $0.otherReceivers = ($0.otherReceivers + [device]).sorted() }
        }
        return false
    }

    /// The followed receiver went away: every receiver may be followed again.
    private func stopFollowing() {
        updateReceiverStatus {
            $0.receiver = nil
            $0.otherReceivers = []
        }
    }

    /// The last fix no longer describes the present (a silence, a lost connection).
    private func markLocationsStale() {
        location?.isStale = true
        latestReceivedLocation?.isStale = true
    }

    /// The source's sequence ended: a replay reached its end, or the source gave up.
    func sourceEnded() {
        session = nil
        sourceFinished = true
        if receiverStatus.sourceState != .finished {
            updateReceiverStatus { $0.sourceState = .finished }
        }
        locationServicesEnabled = false
        // Nothing more will come: a pending requestLocation is answered now, not at its timeout.
        oneShotSourceEnded()
    }

    /// Hands a receiver report on as it came, before anything it causes, while access is granted
    /// and location updates run.
    func reportRaw(_ report: Report) {
        guard updatingLocation, authorizationStatus.isAuthorized else { return }
        receiver?.locationManager(self, didReceive: report)
    }

    func updateReceiverStatus(_ change: (inout ReceiverStatus) -> Void) {
        var status = receiverStatus
        change(&status)
        guard status != receiverStatus else { return }
        receiverStatus = status
        receiver?.locationManager(self, didChangeReceiverStatus: status)
        updateLiveConditions()
    }

    func handle(_ fix: Fix) {
        locationServicesEnabled = true
        updateReceiverStatus {
            $0.fixMode = fix.mode
            if fix.hasPosition { $0.isStale = false }
        }
        // The receiver says it lost its fix: the last position no longer describes the present,
        // and the one that comes with the fix's return is delivered whatever the distance filter.
        if fix.mode == .noFix { markLocationsStale() }
        guard authorizationStatus.isAuthorized,
              let location = Location(fix: fix, sky: sky(for: fix), sourceInformation: source.sourceInformation) else { return }
        latestReceivedLocation = location
        // Without updates asked for, nothing delivers locations, and `location` is the last one
        // the manager retrieved for anyone (regions, visits, live updates), as CoreLocation's is:
        // a region's callback reads where the device is. Updates keep it to what they deliver.
        if !updatingLocation && !monitoringSignificantChanges { self.location = location }
        let limited = accuracyAuthorization == .reducedAccuracy
        for live in liveSessions.values { live.receive(location, accuracyLimited: limited) }
        updateRegions(with: location)
        if monitoringVisits { updateVisits(with: location) }
        // The fix's heading goes out before its location, so that a consumer handling the
        // location finds `heading` already describing the same moment.
        if updatingHeading { deliverCourseHeading(from: fix, location: location) }
        let deliveredOnce = completeOneShot(with: location)
        if updatingLocation && !deliveredOnce {
            deliverUpdate(location)
        } else if monitoringSignificantChanges && !deliveredOnce {
            deliverSignificantChange(location)
        }
    }

    /// How many receivers' sky views are kept apart.
    static let maximumSkyDevices = 16

    /// The sky view whose counts the receiver status shows after `latest` arrived. With one
    /// receiver (or skies that name none) that is `latest`. With several on one gpsd, each SKY
    /// is one receiver's, and taking each in turn made the counts jump between them twice a
    /// second; the status shows the receiver closest to a fix instead: the most satellites
    /// used, then the most seen.
    func skyForReceiverStatus(latest: SkyView) -> SkyView {
        guard latest.device != nil, skiesByDevice.count > 1 else { return latest }
        return bestSky() ?? latest
    }

    /// The receiver status's satellite counts, from `sky`.
    func showSatelliteCounts(of sky: SkyView) {
        updateReceiverStatus { $0.satellitesSeen = sky.seen; $0.satellitesUsed = sky.used }
    }

    /// Of the receivers' latest sky views, the one with the most satellites used, then seen.
    func bestSky() -> SkyView? {
        skiesByDevice.values.max { ($0.used, $0.seen ?? 0) < ($1.used, $1.seen ?? 0) }
    }

    /// The sky view that goes with `fix`: its own receiver's when both name one (with two
    /// receivers on one gpsd, the last SKY may be the other's, whose satellite count is not
    /// this fix's), else the latest.
    func sky(for fix: Fix) -> SkyView? {
        guard let device = fix.device, let last = lastSky, let lastDevice = last.device, lastDevice != device else {
            return lastSky
        }
        return skiesByDevice[device]
    }

    /// Whether `location` is at least `accuracy` metres accurate (any location when `accuracy` ≤ 0).
    static func isAccurate(_ location: Location, within accuracy: Double) -> Bool {
        guard accuracy > 0 else { return true }
        guard let horizontal = location.horizontalAccuracy else { return false }
        return horizontal <= accuracy
    }

    func deliverUpdate(_ location: Location) {
        guard Self.isAccurate(location, within: accuracyFilter) else { return }
        if pausesLocationUpdatesAutomatically && pauseRadius > 0 {
            var detector = pauseDetector ?? DwellDetector(radius: pauseRadius, dwell: pauseInterval, rule: .allowingForAccuracy)
            let event = detector.update(with: location)
            pauseDetector = detector
            switch event {
            case .arrived:
                paused = true
                receiver?.locationManagerDidPauseLocationUpdates(self)
            case .departed:
                paused = false
                receiver?.locationManagerDidResumeLocationUpdates(self)
            case nil:
                break
            }
        }
        guard !paused else { return }
        if distanceFilter > 0, !awaitingInitialLocation, let previous = self.location, !previous.isStale,
           previous.distance(from: location) < distanceFilter {
            return
        }
        deliver(location)
    }

    func deliver(_ location: Location) {
        awaitingInitialLocation = false
        if oneShot != nil, oneShot?.newestDelivered.map({ $0 < location.timestamp }) ?? true {
            oneShot?.newestDelivered = location.timestamp
        }
        self.location = location
        receiver?.locationManager(self, didUpdateLocations: [location])
    }

    // MARK: Headings

    func handle(_ attitude: Attitude) {
        guard authorizationStatus.isAuthorized, updatingHeading else { return }
        let time = attitude.time ?? latestReceivedLocation?.timestamp ?? Date()
        let measuresTrueNorth = MeasuredValue.finite(attitude.heading) != nil
        // A magnetic compass gives way to a sensor that measures true north (a gyro, a GNSS
        // compass) while that one reports: a boat with both would otherwise show each in turn.
        if !measuresTrueNorth, let trueNorthTime = lastTrueNorthHeadingTime, isCurrent(trueNorthTime, at: time) { return }
        guard let heading = Heading(sensor: attitude, variation: Self.magneticVariation(at: latestReceivedLocation),
                                    timestamp: time) else { return }
        lastSensorHeadingTime = time
        if measuresTrueNorth { lastTrueNorthHeadingTime = time }
        deliver(heading)
    }

    /// The magnetic variation at `location`, east positive: gpsd's `magvar` when the fix has one,
    /// else the magnetic model gpsd uses. Nil without a location.
    static func magneticVariation(at location: Location?) -> Double? {
        guard let location else { return nil }
        if let variation = location.fix.magneticVariation, variation.isFinite { return variation }
        return MagneticModel.declination(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
    }

    func deliverCourseHeading(from fix: Fix, location: Location) {
        // A heading sensor, when present, is better than the course; prefer it while it reports.
        if let sensorTime = lastSensorHeadingTime, isCurrent(sensorTime, at: location.timestamp) { return }
        guard let heading = courseHeading(for: location) else { return }
        deliver(heading)
    }

    /// The heading `location`'s own course makes while moving at ``minimumSpeedForCourseHeading``
    /// or faster, or nil: the one rule for a course heading, which the manager delivers (through
    /// its ``headingFilter``) and a display can ask of any location it shows.
    public func courseHeading(for location: Location) -> Heading? {
        guard let speed = location.speed, speed >= minimumSpeedForCourseHeading else { return nil }
        // The magnetic course from the variation, as for a sensor: gpsd's own magtrack, where it
        // works one out, adds the variation where it should take it away.
        let magnetic = location.course.flatMap { course in Self.magneticVariation(at: location).map { course - $0 } }
        return Heading(trueHeading: location.course, magneticHeading: magnetic,
                       headingAccuracy: location.courseAccuracy, timestamp: location.timestamp, source: .courseOverGround)
    }

    /// Whether a sensor reading taken at `time` still describes the moment `now` (both on the
    /// fixes' clock): the one rule for how long a heading sensor is believed.
    public func isCurrent(_ time: Date, at now: Date) -> Bool {
        abs(now.timeIntervalSince(time)) < sensorHeadingValidity / .seconds(1)
    }

    func deliver(_ heading: Heading) {
        // A reading that adds a heading the last one lacked (a compass's true heading, once a
        // first fix gives the variation) is news, however close its angle.
        if headingFilter > 0, let previous = self.heading, previous.source == heading.source,
           (previous.trueHeading == nil) == (heading.trueHeading == nil),
           (previous.magneticHeading == nil) == (heading.magneticHeading == nil),
           MeasuredValue.angularDistance(previous.bestHeading, heading.bestHeading) < headingFilter {
            return
        }
        self.heading = heading
        receiver?.locationManager(self, didUpdateHeading: heading)
    }

    // MARK: Visits

    func updateVisits(with location: Location) {
        guard var detector = visitDetector else { return }
        let event = detector.update(with: location)
        visitDetector = detector
        switch event {
        case .arrived(let center, let since):
            receiver?.locationManager(self, didVisit: Visit(coordinate: center, horizontalAccuracy: visitRadius, arrivalDate: since))
        case .departed(let center, let arrival, let lastInside):
            receiver?.locationManager(self, didVisit: Visit(coordinate: center, horizontalAccuracy: visitRadius,
                                                            arrivalDate: arrival, departureDate: lastInside))
        case nil:
            break
        }
    }
}
