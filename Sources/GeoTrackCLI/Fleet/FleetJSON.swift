import FoundationEssentials
import GPSReports
import OwnTracks

/// `fleet --json`: a received location as one line: every field the device sent (`batt`,
/// `SSID`, `conn`, `inrids`… all the booklet documents, and any other), with those geotrack reads
/// normalised (a string `tst` as a number, iOS's -1 placeholders left out, a missing `tst` the
/// time of receipt), plus `topic` and `received_at`. A device's last will (`"_type":"lwt"`, sent by
/// the broker when it lost the device) is a line too, as sent, with `topic` and `received_at`.
package enum FleetJSON {
    /// Any JSON value, kept as it came.
    private enum Value: Codable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([Value])
        case object([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else if let array = try? container.decode([Value].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let bool): try container.encode(bool)
            // Whole numbers as integers (80, not 80.0), as the devices send them.
            case .number(let number):
                if let whole = OwnTracksNumber.whole(number), Double(whole) == number { try container.encode(whole) } else { try container.encode(number) }
            case .string(let string): try container.encode(string)
            case .array(let array): try container.encode(array)
            case .object(let object): try container.encode(object)
            }
        }
    }

    /// The JSON line; `received_at` in seconds since 1970, to the millisecond. `payload` is
    /// what the device sent, whose other fields are kept.
    package static func line(_ location: OwnTracksLocation, payload: [UInt8] = [], topic: String, receivedAt: Date) -> String {
        var object: [String: Value] = [:]
        if case .object(let sent)? = try? JSONDecoder().decode(Value.self, from: Data(payload)) { object = sent }
        // What geotrack read replaces what was sent for those fields: a placeholder it read as
        // unknown is left out rather than passed on.
        for key in ["lat", "lon", "tst", "acc", "alt", "vac", "vel", "cog", "tid", "t", "inregions", "created_at"] {
            object.removeValue(forKey: key)
        }
        if let normalised = try? JSONDecoder().decode([String: Value].self, from: Data(OwnTracksJSON.encode(location))) {
            object.merge(normalised) { _, new in new }
        }
        return encode(object, topic: topic, receivedAt: receivedAt)
    }

    /// The JSON line for a device's last will: what the broker published for it (`_type`, `tst`),
    /// with `topic` and `received_at`.
    package static func lastWillLine(payload: [UInt8], topic: String, receivedAt: Date) -> String {
        var object: [String: Value] = ["_type": .string("lwt")]
        if case .object(let sent)? = try? JSONDecoder().decode(Value.self, from: Data(payload)) { object.merge(sent) { _, sent in sent } }
        return encode(object, topic: topic, receivedAt: receivedAt)
    }

    private static func encode(_ fields: [String: Value], topic: String, receivedAt: Date) -> String {
        var object = fields
        object["topic"] = .string(topic)
        object["received_at"] = .number((receivedAt.timeIntervalSince1970 * 1000).rounded() / 1000)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // C1 and DEL escaped as the TPV lines escape them: a broker's strings reach a terminal.
        return (try? String(decoding: JSONWriter.escapingControls(encoder.encode(object)), as: UTF8.self)) ?? "{}"
    }
}
