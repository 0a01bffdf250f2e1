/// What gpsd's cycle rules and error model read of an earlier fix (its `lastfix` and `oldfix`):
/// the time, mode, position, altitudes and position errors, and nothing else.
///
/// Kept apart from ``GPSDFix`` because it is copied at every timed sentence: a whole fix was
/// three times the bytes, and a `memmove` of them was a few percent of replay's time.
struct PreviousFix {
    /// Seconds since 1970; 0 when unknown.
    var time: Double = 0
    var mode = 0
    var latitude = Double.nan
    var longitude = Double.nan
    var altHAE = Double.nan
    var altMSL = Double.nan
    var epx = Double.nan
    var epy = Double.nan
    var epv = Double.nan

    init() {}

    init(_ fix: GPSDFix) {
        time = fix.time
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
