/// One report from a location source: one gpsd message, or one decoded NMEA cycle.
///
/// The gpsd client and the NMEA decoder produce the same reports, so nothing
/// downstream can tell the two sources apart.
public enum Report: Sendable, Hashable {
    /// Time, position and velocity (gpsd TPV).
    case fix(Fix)
    /// Satellites and dilutions of precision (gpsd SKY).
    case sky(SkyView)
    /// A heading sensor's reading (gpsd ATT; NMEA HDT, HDG, THS).
    case attitude(Attitude)
    /// The receiver's own error statistics (gpsd GST; NMEA GST).
    case noise(PseudorangeNoise)
    /// The full list of receivers attached to gpsd (gpsd DEVICES).
    case devices([Device])
    /// A receiver was attached or reconfigured (gpsd DEVICE with an activation time).
    case deviceAdded(Device)
    /// A receiver went away (gpsd DEVICE without an activation time).
    case deviceRemoved(Device)
    /// The daemon's version (gpsd VERSION).
    case version(Version)
}
