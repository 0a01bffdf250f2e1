import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Distances on the WGS 84 ellipsoid by Vincenty's inverse formula: as gpsd uses to derive a
/// speed for cycles whose sentences carry none (GGA or GLL only), and for a track's length.
package enum Vincenty {
    static let a = 6_378_137.0
    static let f = 1 / 298.257223563
    static let radians = Double.pi / 180

    /// A point's reduced latitude (its latitude on the auxiliary sphere), as sine and cosine: the
    /// part of the formula that depends on that point alone, four calls into libm.
    package struct ReducedLatitude: Sendable {
        let sine: Double
        let cosine: Double

        /// The reduced latitude of `latitude`, in degrees.
        package init(latitude: Double) {
            let u = atan((1 - Vincenty.f) * tan(latitude * Vincenty.radians))
            sine = sin(u)
            cosine = cos(u)
        }

        init(sine: Double, cosine: Double) {
            self.sine = sine
            self.cosine = cosine
        }
    }

    /// The distance in metres between two points given in degrees; NaN if any input is not finite.
    package static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        if let known = knownDistance(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2) {
            return known
        }
        return distance(ReducedLatitude(latitude: latitude1), longitude1: longitude1,
                        ReducedLatitude(latitude: latitude2), longitude2: longitude2)
    }

    /// The distance when the inputs decide it without the formula: NaN if any is not finite, and
    /// 0 for two equal points (the formula gives exactly 0 for them: its sin σ is 0 from the
    /// start); `nil` otherwise.
    @inline(__always)
    static func knownDistance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double? {
        guard latitude1.isFinite, longitude1.isFinite, latitude2.isFinite, longitude2.isFinite else { return .nan }
        return latitude1 == latitude2 && longitude1 == longitude2 ? 0 : nil
    }

    /// The distance in metres between two points given by their reduced latitudes and their
    /// longitudes in degrees, all finite.
    package static func distance(_ point1: ReducedLatitude, longitude1: Double,
                                 _ point2: ReducedLatitude, longitude2: Double) -> Double {
        let b = (1 - f) * a
        let l = (longitude2 - longitude1) * radians
        let sinU1 = point1.sine, cosU1 = point1.cosine, sinU2 = point2.sine, cosU2 = point2.cosine
        var lambda = l
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cosSquaredAlpha = 0.0, cos2SigmaM = 0.0
        for _ in 0..<100 {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return 0 }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSquaredAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha : 0
            let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda = l + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 { break }
        }
        let uSquared = cosSquaredAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4
            * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
               - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * bigA * (sigma - deltaSigma)
    }
}
