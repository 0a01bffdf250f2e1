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
