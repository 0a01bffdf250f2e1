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
/// - **A later report of the last location's time takes its place**, as in the GPX track: gpsd
///   reports a cycle again as more of its sentences arrive (a GGA's position first, with a speed
///   it derived, then the RMC's speed and course), and what it finally said of that time is the
///   point. So a log and the GPX track recorded from it have the same summary.
/// - **Duration** sums the intervals between consecutive locations whose time goes forward: a
///   log whose clock steps back is never a negative duration, and the step is a gap. Time is
///   counted once: an interval that comes back across time already covered (a receiver that
///   restarted at its 1980 epoch for one fix, then found the date again; a log played twice)
///   counts only from the latest time covered before its end, and not at all when its end was
///   covered already.
/// - **An interval is moving** when it is forward, at most ``gapLimit`` long, and either the
///   receiver reported speeds at its ends averaging at least ``movingSpeed``, or, where it
///   reported none and outside a stop, it was covered at that speed by a step longer than the
///   positions' own error (`Location.horizontalAccuracy`): jitter at rest is not movement. A speed the
///   receiver reported comes with its course (`Location.reportedSpeed`): gpsd fills a speed
///   it derived between the last two positions, with no course, for a report that lacked one.
/// - **Moving time** sums the moving intervals; a gap is neither moving nor still.
/// - **Distance** sums the WGS 84 geodesic over the moving intervals only, each at most what the
///   receiver's reported speed at its ends allows over its time: a receiver at rest adds nothing,
///   and a position error is never counted as ground covered.
/// - **Maximum speed** is the highest speed the receiver reported, or the speed of a moving
///   interval over which it reported none. **Average speed** is the distance over the moving
///   time, so it never exceeds the maximum.
/// - **Ascent and descent** count altitude changes of at least ``climbThreshold`` from the last
///   counted altitude, so that the receiver's vertical noise adds nothing.
/// - **A stop**, as Traccar counts one, is a stay of at least ``stopDuration`` within
///   ``stopRadius`` of one place (locations less accurate than that radius are not counted in
///   it); **a trip** is a run of moving intervals between stops. Once a stop is detected,
///   only the receiver's reported speed makes movement within it: wandering positions do not.
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

    /// Whether an interval of `seconds` between consecutive locations is a gap in the track: its
    /// time steps back or stands still, or it is longer than ``gapLimit``. Neither moving nor
    /// still, and never drawn as a line.
    public static func isGap(seconds: Double) -> Bool {
        !(seconds > 0 && seconds <= gapLimit)
    }

    /// Whether the interval that ends at `location`, `seconds` after the location before it, is
    /// a gap: by its time (``isGap(seconds:)``), or because a GPX track starts a new segment
    /// there (`Fix.beginsTrackSegment`): its recorder stopped between the two.
    public static func isGap(before location: Location, seconds: Double) -> Bool {
        isGap(seconds: seconds) || location.fix.beginsTrackSegment
    }

    /// How many locations the track has: one per time.
    public private(set) var points = 0
    /// The first location.
    public private(set) var first: Location?
    /// The last location.
    public private(set) var last: Location?
    /// The length of the track in metres, over its moving intervals.
    public private(set) var distance = 0.0
    /// Seconds spent moving.
    public private(set) var movingTime = 0.0
    /// The highest speed in metres per second, when one is known.
    public private(set) var maximumSpeed: Double?
    /// Metres climbed.
    public private(set) var ascent = 0.0
    /// Metres descended.
    public private(set) var descent = 0.0
    /// The southern and northern edges of the area covered.
    public private(set) var south: Double?, north: Double?
    /// The western and eastern edges of the area covered. Across the 180th meridian the west
    /// edge lies east of it and the east edge west of it (west > east, as GeoJSON's bbox has
    /// them); a track that went round the globe covers every longitude, -180 to 180.
    public var west: Double? { extentOfLongitudes.map { $0.upperBound - $0.lowerBound >= 360 ? -180 : Coordinate.normalizedLongitude($0.lowerBound) } }
    /// See ``west``.
    public var east: Double? { extentOfLongitudes.map { $0.upperBound - $0.lowerBound >= 360 ? 180 : Coordinate.normalizedLongitude($0.upperBound) } }
    /// The least and greatest longitudes, each taken within half a turn of the one before it,
    /// so that crossing the 180th meridian extends them instead of spanning the globe.
    private var extentOfLongitudes: ClosedRange<Double>?
    /// The last longitude so taken.
    private var lastUnwrappedLongitude: Double?
    /// The stops, in order.
    public private(set) var stops: [Stop] = []
    /// How many trips the track has.
    public private(set) var trips = 0

    /// The time covered by forward intervals, in seconds.
    private var elapsed = 0.0
    /// The times covered so far (seconds since 1970), as disjoint ranges in order: each
    /// location's time, and the forward intervals counted in ``elapsed``.
    private var covered: [ClosedRange<Double>] = []
    private var reportedMaximum: Double?
    private var intervalMaximum: Double?
    private var altitudeReference: Double?
    private var inTrip = false
    /// When the trip under way began: a stop found later to have begun before it undoes it.
    private var tripStart: Date?
    /// Within a stop, between its arrival and departure: jitter there is not movement.
    private var stopped = false
    private var stays = DwellDetector(radius: TrackStatistics.stopRadius, dwell: TrackStatistics.stopDuration)
    /// The summary before the last location was added (at most one, holding none of its own),
    /// for a later report of the same time to be added in its place.
    private var beforeLast: [TrackStatistics] = []

    /// An empty summary.
    public init() {}

    /// The time from the first location to the last, in seconds, over the intervals whose time
    /// goes forward: never negative.
    public var duration: Double? {
        first == nil ? nil : elapsed
    }

    /// Covers the forward interval from `start` to `end`; returns how much of it was not covered
    /// yet: none when `end` was, else from the latest time covered before `end` (`start`, for a
    /// track whose time only goes forward).
    private mutating func cover(from start: Double, to end: Double) -> Double {
        if covered.contains(where: { $0.contains(end) }) { return 0 }
        let from = max(start, covered.lazy.map(\.upperBound).filter { $0 < end }.max() ?? start)
        cover(from...end)
        return end - from
    }

    /// Adds `range` to ``covered``, merging the ranges it meets.
    private mutating func cover(_ range: ClosedRange<Double>) {
        var merged = range
        covered.removeAll { existing in
            guard existing.overlaps(merged) else { return false }
            merged = min(existing.lowerBound, merged.lowerBound)...max(existing.upperBound, merged.upperBound)
            return true
        }
        let index = covered.firstIndex { $0.lowerBound > merged.upperBound } ?? covered.endIndex
        covered.insert(merged, at: index)
    }

    /// The distance over the moving time, in metres per second.
    public var averageMovingSpeed: Double? {
        movingTime > 0 ? distance / movingTime : nil
    }

    /// Adds the next location of the track; one at the last location's time replaces it.
    public mutating func add(_ location: Location) {
        if let last, location.timestamp == last.timestamp, let previous = beforeLast.first {
            self = previous
        }
        var snapshot = self
        snapshot.beforeLast = []
        beforeLast = [snapshot]
        points += 1
        let coordinate = location.coordinate
        south = min(south ?? coordinate.latitude, coordinate.latitude)
        north = max(north ?? coordinate.latitude, coordinate.latitude)
        let longitude = lastUnwrappedLongitude.map { Coordinate.longitude(coordinate.longitude, unwrappedNear: $0) } ?? coordinate.longitude
        lastUnwrappedLongitude = longitude
        extentOfLongitudes = extentOfLongitudes.map { min($0.lowerBound, longitude)...max($0.upperBound, longitude) } ?? longitude...longitude
        if let speed = location.reportedSpeed { reportedMaximum = max(reportedMaximum ?? speed, speed) }
        let time = location.timestamp.timeIntervalSince1970
        if let previous = last {
            let seconds = location.timestamp.timeIntervalSince(previous.timestamp)
            if seconds > 0 { elapsed += cover(from: previous.timestamp.timeIntervalSince1970, to: time) }
            // Within a stop only the receiver's own speed says it moves: positions there wander.
            if !Self.isGap(before: location, seconds: seconds),
               let moved = Self.movement(from: previous, to: location, seconds: seconds), !(stopped && moved.derived) {
                movingTime += seconds
                distance += moved.metres
                if moved.derived { intervalMaximum = max(intervalMaximum ?? 0, moved.metres / seconds) }
                // Movement within a stop (a boat swinging at anchor, a walk around a viewpoint)
                // is no trip: a trip runs between stops.
                if !inTrip, !stopped {
                    inTrip = true
                    trips += 1
                    tripStart = previous.timestamp
                }
            }
        } else {
            first = location
        }
        cover(time...time)
        last = location
        maximumSpeed = switch (reportedMaximum, intervalMaximum) {
        case let (reported?, derived?): max(reported, derived)
        case let (reported, derived): reported ?? derived
        }
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
            // A stop is known only once it has lasted its dwell: a trip that began within it
            // was no trip.
            if inTrip, let tripStart, tripStart >= since { trips -= 1 }
            inTrip = false
            stopped = true
        case .departed(_, _, let lastInside)?:
            if !stops.isEmpty { stops[stops.count - 1].departure = lastInside }
            stopped = false
        case nil:
            break
        }
    }

    /// Whether the interval from `previous` to `location` is moving, and the ground it covered:
    /// `derived` when no speed of the receiver's bounds it, so that its speed over ground counts
    /// towards the maximum.
    static func movement(from previous: Location, to location: Location, seconds: Double) -> (metres: Double, derived: Bool)? {
        let step = previous.coordinate.geodesicDistance(to: location.coordinate)
        guard step.isFinite else { return nil }
        let reported = [previous, location].compactMap(\.reportedSpeed)
        if let top = reported.max() {
            // The receiver's speeds (Doppler) say whether it moved, better than two positions.
            guard reported.reduce(0, +) / Double(reported.count) >= movingSpeed else { return nil }
            return (min(step, top * seconds), false)
        }
        guard step / seconds >= movingSpeed else { return nil }
        // Without the receiver's speed, a step within the positions' own error may be jitter.
        let error = max(previous.horizontalAccuracy ?? 0, location.horizontalAccuracy ?? 0)
        guard step > error else { return nil }
        return (step, true)
    }
}
