extension Vincenty {
    /// ``Vincenty/distance(latitude1:longitude1:latitude2:longitude2:)`` for a run of fixes, each
    /// measured from one before it: the reduced latitudes of the last two points are kept, so a
    /// point measured from again costs no libm calls of its own.
    ///
    /// A cache of a pure function: what it holds changes no result, bit for bit.
    package struct Memo: Sendable {
        private var latitudes: (UInt64, UInt64) = (Double.nan.bitPattern, Double.nan.bitPattern)
        private var reduced: (ReducedLatitude, ReducedLatitude) = (ReducedLatitude(sine: 0, cosine: 1), ReducedLatitude(sine: 0, cosine: 1))

        /// An empty memo.
        package init() {}

        /// The distance in metres between two points given in degrees; NaN if any input is not finite.
        package mutating func distance(latitude1: Double, longitude1: Double,
                                       latitude2: Double, longitude2: Double) -> Double {
            if let known = Vincenty.knownDistance(latitude1: latitude1, longitude1: longitude1,
                                                  latitude2: latitude2, longitude2: longitude2) {
                return known
            }
            // The earlier point first: it is usually the one kept from the last call.
            let point2 = reducedLatitude(latitude2, sparing: nil)
            let point1 = reducedLatitude(latitude1, sparing: latitude2.bitPattern)
            return Vincenty.distance(point1, longitude1: longitude1, point2, longitude2: longitude2)
        }

        /// The reduced latitude of `latitude`, from the memo or computed and kept there, in place
        /// of the entry that is not `sparing` (keyed by bit pattern: 0 and -0 differ in sign).
        private mutating func reducedLatitude(_ latitude: Double, sparing: UInt64?) -> ReducedLatitude {
            let key = latitude.bitPattern
            if latitudes.0 == key { return reduced.0 }
            if latitudes.1 == key { return reduced.1 }
            let value = ReducedLatitude(latitude: latitude)
            if latitudes.0 == sparing {
                latitudes.1 = key
                reduced.1 = value
            } else {
                // Keeps the newer entry second, so the older one goes next time.
                latitudes.0 = latitudes.1
                reduced.0 = reduced.1
                latitudes.1 = key
                reduced.1 = value
            }
            return value
        }
    }
}
