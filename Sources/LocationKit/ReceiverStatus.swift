import GPSReports

/// What the location source says about the receiver, beyond positions.
///
/// This goes past CoreLocation, which hides its hardware: GeoTrack users want to know
/// whether gpsd answers, whether a receiver is attached, and how many satellites it uses.
public struct ReceiverStatus: Sendable, Hashable {
    /// The source's last state, or `nil` before it said anything.
    public var sourceState: SourceState?
    /// Satellites in view, from the latest sky view; `nil` when it knows only how many are used
    /// (`SkyView.seen`: a replayed GPX track keeps no more). With several receivers on one
    /// gpsd, from the latest sky view of the one that uses the most satellites.
    public var satellitesSeen: Int?
    /// Satellites used in the solution, from the latest sky view (of the receiver that uses the
    /// most, with several).
    public var satellitesUsed: Int
    /// The latest fix mode.
    public var fixMode: FixMode
    /// Whether the source went quiet or its connection was lost: the last fix no longer
    /// describes the present. The next fix with a position makes it current again.
    public var isStale: Bool
    /// The receiver the manager follows, named as the source names it (gpsd's device path): the
    /// first that gave a position. `nil` before then, and for a source whose receiver has no name
    /// (a replay).
    public var receiver: String?
    /// The source's other receivers, in order of their names: their reports are set aside, so
    /// that one track, status and sky come from one receiver (gpsd's `--device` chooses).
    public var otherReceivers: [String]

    /// Creates a status.
    public init(sourceState: SourceState? = nil, satellitesSeen: Int? = 0, satellitesUsed: Int = 0,
                fixMode: FixMode = .unknown, isStale: Bool = false, receiver: String? = nil, otherReceivers: [String] = []) {
        self.sourceState = sourceState
        self.satellitesSeen = satellitesSeen
        self.satellitesUsed = satellitesUsed
        self.fixMode = fixMode
        self.isStale = isStale
        self.receiver = receiver
        self.otherReceivers = otherReceivers
    }
}

extension ReceiverStatus: CustomStringConvertible {
    /// The status in words, as a log line or a `print` wants it: "receiver present, 3D, 8 of
    /// 12 satellites used", with "last fix stale" when the last fix no longer describes the
    /// present and the state does not say so already.
    public var description: String {
        var words = [sourceState?.description ?? "nothing heard yet"]
        if fixMode != .unknown { words.append(fixMode.description) }
        words.append("\(satellitesUsed)" + (satellitesSeen.map { " of \($0)" } ?? "") + " satellites used")
        if isStale, sourceState != .stale { words.append("last fix stale") }
        return words.joined(separator: ", ")
    }
}
