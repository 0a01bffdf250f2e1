import GPSReports

/// How the receiver produced a ``Location``: the satellite side of the fix.
public struct GNSSDetail: Sendable, Hashable {
    /// 2D or 3D.
    public var fixMode: FixMode
    /// The kind of solution (GPS, DGPS, RTK...), when reported.
    public var status: FixStatus?
    /// Satellites used in the solution, when known.
    public var satellitesUsed: Int?
    /// Satellites in view, when known.
    public var satellitesSeen: Int?
    /// Horizontal dilution of precision, when known.
    public var hdop: Double?
    /// Vertical dilution of precision, when known.
    public var vdop: Double?
    /// Position (3D) dilution of precision, when known.
    public var pdop: Double?
    /// The receiver that produced the fix, such as `/dev/ttyACM0`, when known.
    public var device: String?

    /// Creates a detail record; non-finite or negative values become `nil`.
    public init(fixMode: FixMode = .twoD, status: FixStatus? = nil, satellitesUsed: Int? = nil, satellitesSeen: Int? = nil,
                hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil, device: String? = nil) {
        self.fixMode = fixMode
        self.status = status
        self.satellitesUsed = satellitesUsed.flatMap { $0 >= 0 ? $0 : nil }
        self.satellitesSeen = satellitesSeen.flatMap { $0 >= 0 ? $0 : nil }
        self.hdop = MeasuredValue.nonNegative(hdop)
        self.vdop = MeasuredValue.nonNegative(vdop)
        self.pdop = MeasuredValue.nonNegative(pdop)
        self.device = device
    }
}
