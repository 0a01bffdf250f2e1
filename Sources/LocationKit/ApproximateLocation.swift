import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// What an app with ``AccuracyAuthorization/reducedAccuracy`` gets instead of a fix: the one
/// rule for approximate locations.
///
/// The position is snapped to the nearest point of a grid of ``gridSpacing`` degrees (about
/// 2.8 km north–south), and the horizontal error grows by half the cell's diagonal, so the
/// accuracy still covers where the receiver is. Nothing else that could place the device more
/// precisely is kept: no altitude, speed, course, climb or error estimates. The time, the fix
/// mode and status and the device stay.
///
/// ``LocationManager`` applies it to each fix as it arrives, before anything else sees it, so
/// the delegate, the streams under `rx`, the Drivers, one-shot requests, live updates, regions,
/// visits and every output of the `geotrack` tool all start from the same approximate fix.
public enum ApproximateLocation {
    /// The grid's spacing in degrees of latitude and longitude.
    public static let gridSpacing = 0.025
    /// Grid points per degree; snapping divides by it, so a snapped value prints exactly
    /// (`52.025`, not `52.025000000000006`).
    static let pointsPerDegree = 40.0

    /// The approximate fix for `fix`: only a position (snapped), its accuracy, the time, the
    /// mode, the status and the device. A fix without a position keeps only its time, mode,
    /// status and device.
    public static func reduce(_ fix: Fix) -> Fix {
        var reduced = Fix(mode: fix.mode, time: fix.time, device: fix.device)
        reduced.status = fix.status
        guard let latitude = fix.latitude, let longitude = fix.longitude,
              latitude.isFinite, longitude.isFinite else { return reduced }
        let snappedLatitude = snap(latitude)
        reduced.latitude = snappedLatitude
        reduced.longitude = snap(longitude)
        let receiverError = fix.eph.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0
        reduced.eph = (receiverError + halfCellDiagonal(atLatitude: snappedLatitude)).rounded(.up)
        return reduced
    }

    /// The approximate location for `location`, as if its fix had arrived under approximate
    /// access: what ``LocationManager`` hands out in place of a location it kept from before
    /// access was reduced. A location already on the grid is returned as it is, so reducing
    /// twice does not widen its accuracy again.
    public static func reduce(_ location: Location) -> Location {
        guard !isOnGrid(location.coordinate) else { return location }
        let fix = reduce(location.fix)
        guard let coordinate = fix.coordinate else { return location }
        var reduced = Location(coordinate: coordinate, fix: fix, timestamp: location.timestamp,
                               sourceInformation: location.sourceInformation, gnss: location.gnss)
        reduced.isStale = location.isStale
        return reduced
    }

    /// The grid point nearest `coordinate`.
    public static func snap(_ coordinate: Coordinate) -> Coordinate {
        Coordinate(latitude: snap(coordinate.latitude), longitude: snap(coordinate.longitude)) ?? coordinate
    }

    /// Whether both of `coordinate`'s angles lie on the grid.
    public static func isOnGrid(_ coordinate: Coordinate) -> Bool {
        isOnGrid(coordinate.latitude) && isOnGrid(coordinate.longitude)
    }

    /// A visit with its centre snapped; its radius grows by the furthest the centre moved.
    static func reduce(_ visit: Visit) -> Visit {
        guard !isOnGrid(visit.coordinate) else { return visit }
        var reduced = visit
        reduced.coordinate = snap(visit.coordinate)
        reduced.horizontalAccuracy = (visit.horizontalAccuracy
            + halfCellDiagonal(atLatitude: reduced.coordinate.latitude)).rounded(.up)
        return reduced
    }

    /// A report as approximate access lets it out: a fix reduced, anything else as it is.
    static func reduce(_ report: Report) -> Report {
        if case .fix(let fix) = report, let coordinate = fix.coordinate, !isOnGrid(coordinate) {
            return .fix(reduce(fix))
        }
        return report
    }

    /// The grid point nearest `degrees`.
    public static func snap(_ degrees: Double) -> Double {
        (degrees * pointsPerDegree).rounded() / pointsPerDegree
    }

    /// Whether `degrees` lies on the grid, to within the last digit a 7-decimal output prints.
    public static func isOnGrid(_ degrees: Double) -> Bool {
        abs(degrees * pointsPerDegree - (degrees * pointsPerDegree).rounded()) < 1e-5
    }

    /// Half the diagonal of a grid cell at `latitude`, in metres: the furthest a snapped point
    /// is from the position it replaced.
    static func halfCellDiagonal(atLatitude latitude: Double) -> Double {
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        let northSouth = gridSpacing * metresPerDegree
        let eastWest = northSouth * cos(latitude * Double.pi / 180)
        return (northSouth * northSouth + eastWest * eastWest).squareRoot() / 2
    }
}
