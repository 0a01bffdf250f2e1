/// What gpsd's cycle rules and error model read of an earlier fix (its `lastfix` and `oldfix`):
/// the time, mode, position, altitudes and position errors, and nothing else.
///
/// Kept apart from ``GPSDFix`` because it is copied at every timed sentence: a whole fix was
/// three times the bytes, and a `memmove` of them was a few percent of replay's time.
struct PreviousFix: Equatable {
    /// Seconds since 1970; 0 when unknown.
    @BitExact var time: Double = 0
    /// The time's fraction of a second in nanoseconds (``GPSDFix/nanoseconds``).
    var nanoseconds = 0
    var mode = 0
    @BitExact var latitude = Double.nan
    @BitExact var longitude = Double.nan
    @BitExact var altHAE = Double.nan
    @BitExact var altMSL = Double.nan
    @BitExact var epx = Double.nan
    @BitExact var epy = Double.nan
    @BitExact var epv = Double.nan

    init() {}

    // Inlined: the error model makes one at every timed sentence, and as a call of its own it
    // cost more than its ten stores.
    @inline(__always)
    init(_ fix: GPSDFix) {
        time = fix.time
        nanoseconds = fix.nanoseconds
        mode = fix.mode
        latitude = fix.latitude
        longitude = fix.longitude
        altHAE = fix.altHAE
        altMSL = fix.altMSL
        epx = fix.epx
        epy = fix.epy
        epv = fix.epv
    }
}
