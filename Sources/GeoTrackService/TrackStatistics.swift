import FoundationEssentials
import GPSReports
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// A summary of a track, location by location: points, time, geodesic distance, speeds, ascent
/// and descent, the area covered, and its trips and stops.
///
/// The rules, as `geotrack stats` documents them:
/// - **Distance** sums the WGS 84 geodesic between consecutive locations.
/// - **Moving time** sums the intervals between consecutive locations that are at most
///   ``gapLimit`` long and covered at least ``movingSpeed``; a gap is neither moving nor still.
/// - **Maximum speed** is the highest speed the receiver reported; without any, the highest of
///   the moving intervals. **Average speed** is the distance over the moving time.
/// - **Ascent and descent** count altitude changes of at least ``climbThreshold`` from the last
///   counted altitude, so that the receiver's vertical noise adds nothing.
/// - **A stop**, as Traccar counts one, is a stay of at least ``stopDuration`` within
///   ``stopRadius`` of one place (locations less accurate than that radius are not counted in
///   it); **a trip** is a run of moving intervals between stops. Once a stop is detected,
///   movement within it (noise at rest) counts neither as moving time nor as a trip.
public struct TrackStatistics: Sendable {
    /// A stop: where, and from when to when (`departure` is `nil` while the track ends there).
    public struct Stop: Sendable, Hashable {
        /// The centre of the stay.
        public let center: Coordinate
        /// When the stay began.
        public let arrival: Date
        /// The last location at the place, once the track left it.
        public var departure: Date?
    }

    /// Stays shorter than this are not stops (5 minutes, Traccar's default).
    public static let stopDuration: Duration = .seconds(300)
    /// A stop stays within this many metres of one place.
    public static let stopRadius = 50.0
    /// Slower than this (metres per second, 1.8 km/h) over an interval is not moving.
    public static let movingSpeed = 0.5
    /// An interval longer than this (seconds) is a gap in the track, not movement.
    public static let gapLimit = 300.0
    /// Altitude changes smaller than this (metres) are noise.
    public static let climbThreshold = 5.0

    /// How many locations the track has.
    public private(set) var points = 0
    /// The first location.
    public private(set) var first: Location?
    /// The last location.
    public private(set) var last: Location?
    /// The length of the track in metres.
    public private(set) var distance = 0.0
    /// Seconds spent moving.
    public private(set) var movingTime = 0.0
    /// The highest speed in metres per second, when one is known.
    public private(set) var maximumSpeed: Double?
    /// Metres climbed.
    public private(set) var ascent = 0.0
    /// Metres descended.
    public private(set) var descent = 0.0
    /// The southern, western, northern and eastern edges of the area covered.
    public private(set) var south: Double?, west: Double?, north: Double?, east: Double?
    /// The stops, in order.
    public private(set) var stops: [Stop] = []
    /// How many trips the track has.
    public private(set) var trips = 0

    private var reportedMaximum: Double?
    private var intervalMaximum: Double?
    private var altitudeReference: Double?
    private var inTrip = false
    /// Within a stop, between its arrival and departure: jitter there is not movement.
    private var stopped = false
    private var stays = DwellDetector(radius: TrackStatistics.stopRadius, dwell: TrackStatistics.stopDuration)

    /// An empty summary.
    public init() {}

    /// The time from the first location to the last, in seconds.
    public var duration: Double? {
        guard let first, let last else { return nil }
        return last.timestamp.timeIntervalSince(first.timestamp)
    }

    /// The distance over the moving time, in metres per second.
    public var averageMovingSpeed: Double? {
        movingTime > 0 ? distance / movingTime : nil
    }

    /// Adds the next location of the track.
    public mutating func add(_ location: Location) {
        points += 1
        let coordinate = location.coordinate
        south = min(south ?? coordinate.latitude, coordinate.latitude)
        north = max(north ?? coordinate.latitude, coordinate.latitude)
        west = min(west ?? coordinate.longitude, coordinate.longitude)
        east = max(east ?? coordinate.longitude, coordinate.longitude)
        if let speed = location.speed { reportedMaximum = max(reportedMaximum ?? speed, speed) }
        if let previous = last {
            let step = previous.coordinate.geodesicDistance(to: coordinate)
            let seconds = location.timestamp.timeIntervalSince(previous.timestamp)
            if step.isFinite { distance += step }
            if !stopped, seconds > 0, seconds <= Self.gapLimit, step / seconds >= Self.movingSpeed {
                movingTime += seconds
                intervalMaximum = max(intervalMaximum ?? 0, step / seconds)
                if !inTrip {
                    inTrip = true
                    trips += 1
                }
            }
        } else {
            first = location
        }
        last = location
        maximumSpeed = reportedMaximum ?? intervalMaximum
        if let altitude = location.altitude {
            if let reference = altitudeReference {
                if altitude - reference >= Self.climbThreshold {
                    ascent += altitude - reference
                    altitudeReference = altitude
                } else if reference - altitude >= Self.climbThreshold {
                    descent += reference - altitude
                    altitudeReference = altitude
                }
            } else {
                altitudeReference = altitude
            }
        }
        switch stays.update(with: location) {
        case .arrived(let center, let since)?:
            stops.append(Stop(center: center, arrival: since))
            inTrip = false
            stopped = true
        case .departed(_, _, let lastInside)?:
            if !stops.isEmpty { stops[stops.count - 1].departure = lastInside }
            stopped = false
        case nil:
            break
        }
    }
}
