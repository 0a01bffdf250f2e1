import GPSReports

/// What the heading sentences (HDT, HDG, THS) gave since the cycle's start: the part of an
/// ``Attitude`` NMEA fills in, kept in the assembler's state with its numbers compared as they
/// print (``BitExact``: a heading of -0 is not one of 0).
struct HeadingState: Equatable {
    @BitExact var heading: Double?
    @BitExact var magneticHeading: Double?
    @BitExact var magneticDeviation: Double?
    @BitExact var magneticVariation: Double?
    /// The sentence that gave the heading last.
    var source: String?

    init() {}

    /// The attitude these make, without a device or a time (the report's own).
    var report: Attitude {
        var attitude = Attitude()
        attitude.heading = heading
        attitude.magneticHeading = magneticHeading
        attitude.magneticDeviation = magneticDeviation
        attitude.magneticVariation = magneticVariation
        attitude.source = source
        return attitude
    }
}
