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
        var type: String
        var tst: Double?

        enum CodingKeys: String, CodingKey {
            case type = "_type", tst
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            // An lwt's tst may be a string too (the Recorder's own lwt handling reads both).
            tst = OwnTracksNumber.decode(container, .tst)
        }
    }

    /// Where a decoder finds the time of receipt (whole seconds since 1970, an `Int`), which
    /// stands for a location's or transition's `tst` when the message has none.
    /// (The initialiser is failable in Foundation's API though it never fails for this name.)
    public static let receivedAtKey = CodingUserInfoKey(rawValue: "geotrack.owntracks.receivedAt")

    /// The time of receipt a decoder was given, if any.
    static func receivedAt(_ decoder: any Decoder) -> Int? {
        receivedAtKey.flatMap { decoder.userInfo[$0] as? Int }
    }

    /// Reads a message; nil for a payload that is not an OwnTracks JSON object or whose
    /// location or transition is malformed (off the globe). `receivedAt`, when given, is the
    /// time of a message that says none.
    public init?(payload: [UInt8], receivedAt: Int? = nil) {
        let data = Data(payload)
        let decoder = JSONDecoder()
        if let receivedAt, let key = Self.receivedAtKey { decoder.userInfo[key] = receivedAt }
        guard let envelope = try? decoder.decode(Envelope.self, from: data) else { return nil }
        switch envelope.type {
        case "location":
            guard let location = try? decoder.decode(OwnTracksLocation.self, from: data) else { return nil }
            self = .location(location)
        case "transition":
            guard let transition = try? decoder.decode(OwnTracksTransition.self, from: data) else { return nil }
            self = .transition(transition)
        case "lwt":
            self = .lastWill(timestamp: envelope.tst.flatMap { OwnTracksNumber.whole($0, rounding: .towardZero) })
        default:
            self = .other(type: envelope.type)
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
