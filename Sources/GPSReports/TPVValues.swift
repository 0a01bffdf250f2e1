/// The numbers of one TPV report, NaN for "not known": what ``JSONWriter/tpv(_:)`` prints.
///
/// Both ``Fix/tpvJSON()`` and the NMEA replay's bulk path go through it, so the two always print
/// the same line for the same fix.
package struct TPVValues {
    /// gpsd `status`; below 2 (no fix, plain GPS fix) is left out, as gpsd 3.22 leaves it out.
    package var status = 0
    package var mode = 0
    /// Seconds since 1970; 0 or less is left out.
    package var time = 0.0
    package var ept = Double.nan
    package var latitude = Double.nan
    package var longitude = Double.nan
    package var altHAE = Double.nan
    package var altMSL = Double.nan
    package var epx = Double.nan
    package var epy = Double.nan
    package var epv = Double.nan
    package var track = Double.nan
    package var magneticTrack = Double.nan
    package var magneticVariation = Double.nan
    package var speed = Double.nan
    package var climb = Double.nan
    package var epd = Double.nan
    package var eps = Double.nan
    package var epc = Double.nan
    package var geoidSeparation = Double.nan
    package var eph = Double.nan
    package var sep = Double.nan
    /// gpsd `depth`: metres of water below the sounder (DBT).
    package var depth = Double.nan
    /// Whether the wind values are printed: on a TPV reported at a wind sentence only.
    package var hasWind = false
    /// gpsd `wanglem`, `wangler`, `wanglet`, `wspeedr`, `wspeedt`, printed when finite and ``hasWind``.
    package var windAngleMagnetic = Double.nan
    package var windAngleRelative = Double.nan
    package var windAngleTrue = Double.nan
    package var windSpeedRelative = Double.nan
    package var windSpeedTrue = Double.nan
    /// gpsd `dgpsAge`, printed with ``dgpsStation`` when both are known.
    package var dgpsAge = Double.nan
    /// gpsd `dgpsSta`; below 0 is unknown.
    package var dgpsStation = -1

    /// Creates values with nothing known.
    package init() {}
}
