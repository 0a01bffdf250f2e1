/// Where OwnTracks publishes: `owntracks/USER/DEVICE`, with region events on `…/event`.
public struct OwnTracksTopic: Sendable, Hashable, CustomStringConvertible {
    /// The user (a login, a family member).
    public var user: String
    /// The device (a host name, a phone).
    public var device: String

    /// The subscription that sees every device's locations and events.
    public static let everyDevice = ["owntracks/+/+", "owntracks/+/+/event"]

    /// Creates a topic, or nil when a part is empty or holds what MQTT topics reserve
    /// (`/`, `+`, `#`, control characters).
    public init?(user: String, device: String) {
        guard Self.isValidPart(user), Self.isValidPart(device) else { return nil }
        self.user = user
        self.device = device
    }

    /// Reads `owntracks/USER/DEVICE` or `owntracks/USER/DEVICE/event`.
    public init?(topic: String) {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 || (parts.count == 4 && parts[3] == "event"), parts[0] == "owntracks" else { return nil }
        self.init(user: String(parts[1]), device: String(parts[2]))
    }

    /// Whether a user or device name can be part of a topic.
    public static func isValidPart(_ part: String) -> Bool {
        !part.isEmpty && part.utf8.count <= 256
            && !part.unicodeScalars.contains { "/+#".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `owntracks/USER/DEVICE`, where locations and the last will go.
    public var description: String { "owntracks/\(user)/\(device)" }
    /// `owntracks/USER/DEVICE/event`, where transitions go.
    public var events: String { description + "/event" }
    /// `USER/DEVICE`, how the fleet view names the device.
    public var name: String { "\(user)/\(device)" }
    /// The default tracker id: the device name's last two characters, as OwnTracks does.
    public var defaultTrackerID: String { String(device.suffix(2)) }
}
