/// Where gpsd is and how a ``GPSDClient`` behaves when it goes quiet or away.
public struct GPSDConfiguration: Sendable {
    /// The host gpsd listens on.
    public var host: String
    /// gpsd's TCP port.
    public var port: Int
    /// The one receiver to watch, such as `/dev/ttyACM0`; `nil` watches every receiver.
    public var device: String?
    /// How long without any report before the source reports `SourceState.stale`.
    public var staleAfter: Duration
    /// How long an attempt may take to connect and hear gpsd's greeting before it counts as
    /// failed (`SourceError.Code.timedOut`) and the next attempt is scheduled.
    public var connectTimeout: Duration
    /// The delay before the first reconnection attempt; it doubles on each failure.
    public var initialBackoff: Duration
    /// The longest delay between reconnection attempts.
    public var maximumBackoff: Duration
    /// The longest delay after a refused connection: nothing listens on the port (gpsd stopped,
    /// or being restarted). The refusal comes at once and costs nothing, so the client asks
    /// often, and the track resumes soon after gpsd does rather than up to ``maximumBackoff`` later.
    public var maximumBackoffWhenRefused: Duration
    /// Which SKY reports to deliver: every one, or only those whose summary changed.
    public var skyViews: SkyViewDelivery
    /// Whether a failed or lost connection is retried (the default). When `false`, the first
    /// failure ends the session: `SourceState.disconnected(_:)`, then `SourceState.finished`.
    public var reconnects: Bool

    /// Creates a configuration; the defaults reach a local gpsd on its standard port.
    public init(
        host: String = "localhost",
        port: Int = 2947,
        device: String? = nil,
        staleAfter: Duration = .seconds(5),
        connectTimeout: Duration = .seconds(10),
        initialBackoff: Duration = .seconds(1),
        maximumBackoff: Duration = .seconds(30),
        maximumBackoffWhenRefused: Duration = .seconds(2),
        skyViews: SkyViewDelivery = .every,
        reconnects: Bool = true
    ) {
        self.host = host
        self.port = port
        self.device = device
        self.staleAfter = staleAfter
        self.connectTimeout = connectTimeout
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.maximumBackoffWhenRefused = maximumBackoffWhenRefused
        self.skyViews = skyViews
        self.reconnects = reconnects
    }
}

extension GPSDConfiguration {
    /// Whether gpsd can be asked to watch `device`: a device path or gpsd's remote forms
    /// (`/dev/ttyACM0`, `tcp://host:port`, `gpsd://host:2947/dev/ttyUSB0`), at most 128 bytes of
    /// letters, digits and `/ . _ - + : @ , ~`. Quotes, braces, spaces and control characters
    /// would reach gpsd inside libgps's ?WATCH command unescaped.
    public static func isValidDevice(_ device: String) -> Bool {
        guard !device.isEmpty, device.utf8.count <= 128 else { return false }
        return device.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "/._-+:@,~".unicodeScalars.contains(scalar)
        }
    }

    /// What to say about a device path ``isValidDevice(_:)`` refuses.
    public static func invalidDeviceMessage(_ device: String) -> String {
        "the device \(device.debugDescription) is not a device path gpsd can take; give one such as /dev/ttyACM0"
    }
}
