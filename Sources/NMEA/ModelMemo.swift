import GPSReports

/// ``GeoidModel`` and ``MagneticModel`` for a run of fixes: the answers for the last position
/// asked about are kept, since a receiver repeats its position in every sentence of a cycle
/// and, standing still, from cycle to cycle.
///
/// A cache of pure functions: what it holds changes no result, bit for bit.
struct ModelMemo: Sendable {
    private var latitudeBits = Double.nan.bitPattern
    private var longitudeBits = Double.nan.bitPattern
    private var separation = Double.nan
    private var declination = Double.nan

    /// The geoid separation and magnetic declination at a position in degrees.
    mutating func values(latitude: Double, longitude: Double) -> (separation: Double, declination: Double) {
        if latitude.bitPattern != latitudeBits || longitude.bitPattern != longitudeBits {
            latitudeBits = latitude.bitPattern
            longitudeBits = longitude.bitPattern
            separation = GeoidModel.separation(latitude: latitude, longitude: longitude)
            declination = MagneticModel.declination(latitude: latitude, longitude: longitude)
        }
        return (separation, declination)
    }
}
