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
        !part.isEmpty && part.utf8.count <= 256 && isMQTTText(part)
            && !part.unicodeScalars.contains { "/+#".unicodeScalars.contains($0) }
    }

    /// Whether MQTT takes `text` in a topic or client id: libmosquitto refuses control
    /// characters, C1's (U+0080 to U+009F, such as U+0085) included, and Unicode's
    /// noncharacters (mosquitto_validate_utf8). A name it would refuse is told apart here, where
    /// the command line can say which option is wrong, not as a client that cannot be made.
    public static func isMQTTText(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            let value = scalar.value
            return value < 0x20 || (0x7F...0x9F).contains(value) || (0xFDD0...0xFDEF).contains(value)
                || value & 0xFFFE == 0xFFFE
        }
    }

    /// `owntracks/USER/DEVICE`, where locations and the last will go.
    public var description: String { "owntracks/\(user)/\(device)" }
    /// `owntracks/USER/DEVICE/event`, where transitions go.
    public var events: String { description + "/event" }
    /// `USER/DEVICE`, how the fleet view names the device.
    public var name: String { "\(user)/\(device)" }
    /// The default tracker id: the device name's last two letters or digits, as OwnTracks takes
    /// its last two characters, but without the spaces, punctuation and symbols a map's
    /// two-character badge cannot show (`bôat ⛵ 1` gives `t1`, not ` 1`); the last two
    /// characters of a name that has no letter or digit.
    public var defaultTrackerID: String {
        let shown = device.filter { $0.isLetter || $0.isNumber }
        return String(shown.isEmpty ? device.suffix(2) : shown.suffix(2))
    }
}
