import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A message on an OwnTracks topic, as read by a subscriber.
public enum OwnTracksMessage: Sendable, Hashable {
    /// A position.
    case location(OwnTracksLocation)
    /// A region entered or left.
    case transition(OwnTracksTransition)
    /// The broker's last will for a device that went away (`lwt`), or a device saying goodbye.
    case lastWill(timestamp: Int?)
    /// Another OwnTracks type (waypoints, cards, commands), not used here.
    case other(type: String)

    private struct Envelope: Decodable {
        var _type: String
        var tst: Double?
    }

    /// Reads a message; nil for a payload that is not an OwnTracks JSON object or whose
    /// location or transition is malformed (off the globe, no time).
    public init?(payload: [UInt8]) {
        let data = Data(payload)
        let decoder = JSONDecoder()
        guard let envelope = try? decoder.decode(Envelope.self, from: data) else { return nil }
        switch envelope._type {
        case "location":
            guard let location = try? decoder.decode(OwnTracksLocation.self, from: data) else { return nil }
            self = .location(location)
        case "transition":
            guard let transition = try? decoder.decode(OwnTracksTransition.self, from: data) else { return nil }
            self = .transition(transition)
        case "lwt":
            self = .lastWill(timestamp: envelope.tst.flatMap { OwnTracksNumber.whole($0, rounding: .towardZero) })
        default:
            self = .other(type: envelope._type)
        }
    }
}

/// OwnTracks' JSON: compact, keys in a fixed order, `/` not escaped.
public enum OwnTracksJSON {
    /// The message's JSON bytes.
    public static func encode(_ message: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a finite number, a string or an array of strings: encoding cannot fail.
        return (try? [UInt8](encoder.encode(message))) ?? []
    }

    /// The last will: `{"_type":"lwt","tst":…}`.
    public static func lastWill(timestamp: Int) -> [UInt8] {
        Array("{\"_type\":\"lwt\",\"tst\":\(timestamp)}".utf8)
    }
}
