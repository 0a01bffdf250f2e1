/// Wind as a boat's instruments report it, in gpsd's TPV terms (`wanglem`, `wangler`, `wanglet`,
/// `wspeedr`, `wspeedt`): gpsd 3.22 prints them on a TPV reported at a wind sentence (NMEA MWV or
/// MWD) only. Each value is `nil` when the sentence did not give it.
public struct Wind: Sendable, Hashable {
    /// Wind direction relative to magnetic north, in degrees (gpsd `wanglem`, from MWD).
    public var magneticAngle: Double?
    /// Apparent wind angle relative to the bow, in degrees (gpsd `wangler`, from MWV).
    public var relativeAngle: Double?
    /// Wind direction relative to true north, in degrees (gpsd `wanglet`, from MWD).
    public var trueAngle: Double?
    /// Apparent wind speed in metres per second (gpsd `wspeedr`, from MWV).
    public var relativeSpeed: Double?
    /// True wind speed in metres per second (gpsd `wspeedt`, from MWD).
    public var trueSpeed: Double?

    /// Creates a wind report; every value starts out unknown.
    public init(magneticAngle: Double? = nil, relativeAngle: Double? = nil, trueAngle: Double? = nil,
                relativeSpeed: Double? = nil, trueSpeed: Double? = nil) {
        self.magneticAngle = magneticAngle
        self.relativeAngle = relativeAngle
        self.trueAngle = trueAngle
        self.relativeSpeed = relativeSpeed
        self.trueSpeed = trueSpeed
    }
}
