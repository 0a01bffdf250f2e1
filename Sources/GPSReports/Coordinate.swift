import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A position on the WGS 84 ellipsoid, in decimal degrees.
///
/// A `Coordinate` is always valid: latitude within ±90 and longitude within
/// ±180, both finite. Use ``init(latitude:longitude:)`` to build one from
/// untrusted numbers; it returns `nil` rather than carrying NaN or an
/// impossible value downstream.
///
/// This differs from CoreLocation on purpose: `CLLocationCoordinate2D` takes any numbers and
/// leaves the check to `CLLocationCoordinate2DIsValid`, which code forgets, so invalid
/// coordinates travel on. Here the check is the initializer, once; literals you know to be
/// valid unwrap with `?? fallback` or `guard let`.
public struct Coordinate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Degrees north of the equator, from -90 to 90.
    public let latitude: Double
    /// Degrees east of Greenwich, from -180 to 180.
    public let longitude: Double

    /// Creates a coordinate, or returns `nil` when either value is not finite or out of range.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite,
              (-90.0...90.0).contains(latitude), (-180.0...180.0).contains(longitude)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The great-circle distance to another coordinate, in metres (haversine on a 6,371,008.8 m sphere).
    public func distance(to other: Coordinate) -> Double {
        let r = 6_371_008.8
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let dφ = (other.latitude - latitude) * .pi / 180
        let dλ = (other.longitude - longitude) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * r * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// `latitude,longitude` in decimal degrees.
    public var description: String { "\(latitude),\(longitude)" }

    /// `longitude` moved by whole turns to within half a turn of `reference`: 179.9°E seen from
    /// 179.9°W is -180.1°. Means, extents and pictures of a track that crosses the 180th
    /// meridian are taken on such longitudes, then brought back by ``normalizedLongitude(_:)``.
    public static func longitude(_ longitude: Double, unwrappedNear reference: Double) -> Double {
        reference + (longitude - reference).remainder(dividingBy: 360)
    }

    /// Any longitude as one from -180 to 180.
    public static func normalizedLongitude(_ longitude: Double) -> Double {
        let value = longitude.remainder(dividingBy: 360)
        return value == -180 ? 180 : value
    }
}

extension Coordinate {
    /// The distance to `other` along the WGS 84 ellipsoid, in metres (Vincenty's inverse
    /// formula, within a millimetre of GeographicLib's geodesic): the distance a track's
    /// length is made of. ``distance(to:)`` is the faster spherical estimate.
    public func geodesicDistance(to other: Coordinate) -> Double {
        Vincenty.distance(latitude1: latitude, longitude1: longitude, latitude2: other.latitude, longitude2: other.longitude)
    }
}
