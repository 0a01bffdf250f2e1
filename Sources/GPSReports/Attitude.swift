import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where the receiver's platform points, from a heading sensor: gpsd's ATT report,
/// or an NMEA HDT, HDG or THS sentence.
///
/// This is a *sensor* heading. Course over ground is in ``Fix/track`` and is not a heading.
public struct Attitude: Sendable, Hashable {
    /// The receiver, when known.
    public var device: String?
    /// The time of the report, when known.
    public var time: Date?
    /// True heading in degrees, 0 to 360.
    public var heading: Double?
    /// Magnetic heading in degrees, 0 to 360.
    public var magneticHeading: Double?
    /// Magnetic deviation in degrees, when the sensor reports it.
    public var magneticDeviation: Double?
    /// Magnetic variation in degrees, east positive, when the sensor reports it.
    public var magneticVariation: Double?
    /// Pitch in degrees, when reported.
    public var pitch: Double?
    /// Roll in degrees, when reported.
    public var roll: Double?
    /// Yaw in degrees, when reported.
    public var yaw: Double?
    /// The sentence or message that carried it ("HDT", "THS", "ATT"...), when known.
    public var source: String?

    /// Creates an attitude report.
    public init(device: String? = nil, time: Date? = nil, heading: Double? = nil, magneticHeading: Double? = nil) {
        self.device = device
        self.time = time
        self.heading = heading
        self.magneticHeading = magneticHeading
    }
}
