import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A receiver attached to gpsd: gpsd's DEVICE object.
public struct Device: Sendable, Hashable {
    /// The device path, such as `/dev/ttyACM0`.
    public var path: String
    /// The driver gpsd chose ("NMEA0183", "u-blox"...), when known.
    public var driver: String?
    /// Firmware or model details, when known.
    public var subtype: String?
    /// When gpsd activated the device; `nil` when it is not active.
    public var activated: Date?
    /// Serial speed in bits per second, when known.
    public var bitsPerSecond: Int?
    /// The receiver's reporting cycle in seconds, when known.
    public var cycle: Double?

    /// Creates a device description.
    public init(path: String, driver: String? = nil, subtype: String? = nil, activated: Date? = nil,
                bitsPerSecond: Int? = nil, cycle: Double? = nil) {
        self.path = path
        self.driver = driver
        self.subtype = subtype
        self.activated = activated
        self.bitsPerSecond = bitsPerSecond
        self.cycle = cycle
    }
}

/// The version of the gpsd daemon and its protocol: gpsd's VERSION report.
public struct Version: Sendable, Hashable {
    /// The release, such as "3.22".
    public var release: String
    /// The source revision.
    public var revision: String
    /// The JSON protocol's major version.
    public var protocolMajor: Int
    /// The JSON protocol's minor version.
    public var protocolMinor: Int

    /// Creates a version report.
    public init(release: String, revision: String, protocolMajor: Int, protocolMinor: Int) {
        self.release = release
        self.revision = revision
        self.protocolMajor = protocolMajor
        self.protocolMinor = protocolMinor
    }
}
