/// Where a source's locations come from, like CoreLocation's `CLLocationSourceInformation`.
public struct SourceInformation: Sendable, Hashable {
    /// The locations are played back from a recording (an NMEA log, a GPX track, a test
    /// script), not measured now.
    public var isSimulatedBySoftware: Bool
    /// The locations come from a receiver attached to the machine (through gpsd), the way
    /// CoreLocation marks an external accessory's.
    public var isProducedByAccessory: Bool

    /// Creates the information; by default neither simulated nor from an accessory.
    public init(isSimulatedBySoftware: Bool = false, isProducedByAccessory: Bool = false) {
        self.isSimulatedBySoftware = isSimulatedBySoftware
        self.isProducedByAccessory = isProducedByAccessory
    }

    /// A live receiver behind gpsd.
    public static let receiver = SourceInformation(isProducedByAccessory: true)
    /// A replay or a script.
    public static let simulated = SourceInformation(isSimulatedBySoftware: true)
}
