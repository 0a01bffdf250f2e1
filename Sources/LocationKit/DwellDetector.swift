import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// Detects stays: the device remaining within `radius` of one place for `dwell` time,
/// and the moment it leaves. Visits and automatic pausing both use it.
///
/// Time is the fixes' own timestamps, so a replayed track behaves the same at any pace.
/// Fixes less accurate than the radius are ignored. Leaving needs a fix farther than
/// `radius` plus its accuracy from the stay's centre, so noise at rest is not a departure.
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
        var latitudeSum: Double
        var longitudeSum: Double
        var count: Double

        init(_ location: Location) {
            anchor = location.coordinate
            start = location.timestamp
            last = location.timestamp
            latitudeSum = location.coordinate.latitude
            longitudeSum = location.coordinate.longitude
            count = 1
        }

        mutating func add(_ location: Location) {
            last = location.timestamp
            latitudeSum += location.coordinate.latitude
            longitudeSum += location.coordinate.longitude
            count += 1
        }

        var center: Coordinate {
            Coordinate(latitude: latitudeSum / count, longitude: longitudeSum / count) ?? anchor
        }
    }

    let radius: Double
    let dwell: Duration
    private var cluster: Cluster?
    private(set) var isStaying = false

    package init(radius: Double, dwell: Duration) {
        self.radius = radius
        self.dwell = dwell
    }

    package mutating func update(with location: Location) -> Event? {
        let accuracy = location.horizontalAccuracy ?? 0
        guard accuracy < radius else { return nil }
        guard var current = cluster else {
            cluster = Cluster(location)
            return nil
        }
        let reference = isStaying ? current.center : current.anchor
        let distance = reference.distance(to: location.coordinate)
        let limit = isStaying ? radius + accuracy : radius
        if distance <= limit {
            current.add(location)
            cluster = current
            let stayed = location.timestamp.timeIntervalSince(current.start)
            if !isStaying && stayed >= Self.seconds(dwell) {
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

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
