import GPSReports
import GeoTrackReactive

/// One running iteration of ``LocationUpdate/liveUpdates(_:from:)``: its filters, its stay
/// detector, and where its updates go. Lives on the main actor, in its manager.
@MainActor
final class LiveUpdateSession {
    private let configuration: LocationUpdate.LiveConfiguration
    /// Where its updates wait for the loop; the manager waits on it before reading more of a replay.
    let channel: BufferedChannel<LocationUpdate>
    private var stay: DwellDetector?
    private var lastLocation: Location?
    private var isStationary = false
    /// The last update without a location, so a repeated state is not reported twice.
    private var lastCondition: LocationUpdate?

    init(configuration: LocationUpdate.LiveConfiguration, channel: BufferedChannel<LocationUpdate>) {
        self.configuration = configuration
        self.channel = channel
        if configuration.stationaryRadius > 0 {
            stay = DwellDetector(radius: configuration.stationaryRadius, dwell: configuration.stationaryInterval,
                                 rule: .allowingForAccuracy)
        }
    }

    /// A location the manager received while access is granted; `accuracyLimited` when it is
    /// approximate.
    func receive(_ location: Location, accuracyLimited: Bool) {
        lastCondition = nil
        guard accuracyLimited || LocationManager.isAccurate(location, within: configuration.accuracyFilter) else { return }
        if var detector = stay {
            let event = detector.update(with: location)
            stay = detector
            switch event {
            case .arrived:
                isStationary = true
                // Said once, with the location that settled it; then quiet until it moves.
                channel.send(LocationUpdate(location: location, isStationary: true, accuracyLimited: accuracyLimited))
                lastLocation = location
                return
            case .departed:
                isStationary = false
            case nil:
                break
            }
        }
        guard !isStationary else { return }
        if configuration.distanceFilter > 0, let previous = lastLocation,
           previous.distance(from: location) < configuration.distanceFilter {
            return
        }
        lastLocation = location
        channel.send(LocationUpdate(location: location, accuracyLimited: accuracyLimited))
    }

    /// Access was reduced: the locations it keeps from before are snapped to the grid.
    ///
    /// A stay cannot be told from locations kilometres wide, so a stationary loop is no longer
    /// held quiet: approximate locations come again (``LocationUpdate/isStationary`` waits for
    /// precise access).
    func reduceAccuracy() {
        lastLocation = lastLocation.map(ApproximateLocation.reduce)
        if isStationary {
            isStationary = false
            stay = DwellDetector(radius: configuration.stationaryRadius, dwell: configuration.stationaryInterval,
                                 rule: .allowingForAccuracy)
        } else {
            stay?.snapToGrid()
        }
    }

    /// Access or availability changed: say so once, without a location.
    func report(_ condition: LocationUpdate) {
        guard condition != lastCondition else { return }
        lastCondition = condition
        channel.send(condition)
    }

    /// The manager is going away.
    func finish() {
        channel.finish()
    }
}
