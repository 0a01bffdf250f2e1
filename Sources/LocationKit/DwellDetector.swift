import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// Detects stays: the device remaining within `radius` of one place for `dwell` time,
/// and the moment it leaves. Visits, automatic pausing and `isStationary` all use it.
///
/// Time is the fixes' own timestamps, so a replayed track behaves the same at any pace.
///
/// The rule, which a real receiver can meet: a fix is *inside* a stay when its distance from the
/// stay is at most `radius` plus the fix's own horizontal accuracy (unknown counts as 0), since a
/// receiver standing still reports positions scattered over about its accuracy. A stay starts at
/// a fix, is measured from that first fix until it becomes a stay, and from the mean of its fixes
/// once it is one; a fix outside starts a new stay there (and, after a stay, is a departure). So
/// a 15 m receiver at rest becomes stationary under a 5 m radius, while anything moving farther
/// than the radius plus the error within the dwell time does not. Fixes less accurate than
/// ``maximumAccuracy`` say nothing about a stay of a few metres and are ignored.
///
/// ``Rule/accurateFixesOnly`` is the stricter rule that visits and the track statistics use:
/// only fixes more accurate than the radius count, and a fix is inside when within the radius of
/// the stay's first fix (leaving a stay still allows for the fix's accuracy). A visit's radius
/// (50 m by default) is one an ordinary receiver meets, and the `geotrack` tool's visit events
/// are dated by this rule.
package struct DwellDetector: Sendable {
    package enum Event: Equatable, Sendable {
        /// Stayed long enough: the stay began at `since`, centred on `center`.
        case arrived(center: Coordinate, since: Date)
        /// Left a stay that began at `arrival`; the last fix at the place was at `lastInside`.
        case departed(center: Coordinate, arrival: Date, lastInside: Date)
    }

    private struct Cluster {
        var anchor: Coordinate
        var start: Date
        var last: Date
        /// The position of the fix at `last`, which a later report of that fix time replaces.
        var lastCoordinate: Coordinate
        var latitudeSum: Double
        /// The sum of the longitudes, each within half a turn of ``referenceLongitude``: a stay on
        /// the 180th meridian, its fixes on both sides, has its centre there, not on the far side
        /// of the globe.
        var longitudeSum: Double
        let referenceLongitude: Double
        var count: Double

        init(_ location: Location) {
            anchor = location.coordinate
            start = location.timestamp
            last = location.timestamp
            lastCoordinate = location.coordinate
            latitudeSum = location.coordinate.latitude
            referenceLongitude = location.coordinate.longitude
            longitudeSum = location.coordinate.longitude
            count = 1
        }

        /// `coordinate`'s longitude near the cluster's first.
        func unwrapped(_ coordinate: Coordinate) -> Double {
            Coordinate.longitude(coordinate.longitude, unwrappedNear: referenceLongitude)
        }

        /// Adds a fix; a report of the last fix's time (gpsd 3.25 and later send one per
        /// sentence of a cycle, 3.22 one per cycle) completes that fix rather than counting it
        /// again, so the centre is the mean of fixes, whichever gpsd reported them.
        mutating func add(_ location: Location) {
            if location.timestamp == last {
                latitudeSum += location.coordinate.latitude - lastCoordinate.latitude
                longitudeSum += unwrapped(location.coordinate) - unwrapped(lastCoordinate)
                if count == 1 { anchor = location.coordinate }
            } else {
                latitudeSum += location.coordinate.latitude
                longitudeSum += unwrapped(location.coordinate)
                count += 1
            }
            last = location.timestamp
            lastCoordinate = location.coordinate
        }

        var center: Coordinate {
            Coordinate(latitude: latitudeSum / count, longitude: Coordinate.normalizedLongitude(longitudeSum / count)) ?? anchor
        }
    }

    /// Which fixes count, and how far from a stay a fix may be and still be inside it.
    package enum Rule: Sendable {
        /// Within the radius plus the fix's accuracy; fixes up to ``maximumAccuracy`` count.
        case allowingForAccuracy
        /// Within the radius; only fixes more accurate than the radius count.
        case accurateFixesOnly
    }

    let radius: Double
    let dwell: Duration
    let rule: Rule
    private var cluster: Cluster?
    private(set) var isStaying = false

    package init(radius: Double, dwell: Duration, rule: Rule = .accurateFixesOnly) {
        self.radius = radius
        self.dwell = dwell
        self.rule = rule
    }

    /// Fixes less accurate than this many metres are ignored.
    package static let maximumAccuracy = 100.0

    /// A fix whose receiver says it moves faster than this (metres per second, 10.8 km/h) is
    /// in no stay, however close to it: a glider circling in a thermal, a runner on a track.
    /// A boat swinging at anchor, a walk round a viewpoint stay.
    package static let maximumStaySpeed = 3.0

    package mutating func update(with location: Location) -> Event? {
        let accuracy = location.horizontalAccuracy ?? 0
        switch rule {
        case .allowingForAccuracy: guard accuracy <= Self.maximumAccuracy else { return nil }
        case .accurateFixesOnly: guard accuracy < radius else { return nil }
        }
        guard var current = cluster else {
            cluster = Cluster(location)
            return nil
        }
        let reference = isStaying ? current.center : current.anchor
        let distance = reference.distance(to: location.coordinate)
        let limit = isStaying || rule == .allowingForAccuracy ? radius + accuracy : radius
        let travelling = (location.reportedSpeed ?? 0) > Self.maximumStaySpeed
        if distance <= limit && !travelling {
            current.add(location)
            cluster = current
            let stayed = location.timestamp.timeIntervalSince(current.start)
            if !isStaying && stayed >= dwell.inSeconds {
                isStaying = true
                return .arrived(center: current.center, since: current.start)
            }
            return nil
        }
        cluster = Cluster(location)
        if isStaying {
            isStaying = false
            return .departed(center: current.center, arrival: current.start, lastInside: current.last)
        }
        return nil
    }

    /// Moves the stay under way onto the grid of approximate locations: access was reduced,
    /// and nothing it reports afterwards may be more precise than the grid.
    package mutating func snapToGrid() {
        guard var current = cluster else { return }
        let center = ApproximateLocation.snap(current.center)
        current.anchor = ApproximateLocation.snap(current.anchor)
        current.lastCoordinate = ApproximateLocation.snap(current.lastCoordinate)
        current.latitudeSum = center.latitude * current.count
        current.longitudeSum = current.unwrapped(center) * current.count
        cluster = current
    }
}
