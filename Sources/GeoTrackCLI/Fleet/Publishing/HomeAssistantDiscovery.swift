import GPSReports
import OwnTracks

/// Home Assistant's MQTT discovery for a device that publishes OwnTracks locations
/// (`--publish-home-assistant`): one retained config message under `homeassistant/` makes a
/// `device_tracker` whose position is read from the device's OwnTracks topic, so Home Assistant
/// shows it on its map without an OwnTracks integration or any YAML.
package enum HomeAssistantDiscovery {
    /// Home Assistant's default discovery prefix.
    package static let prefix = "homeassistant"

    /// The discovery id: `geotrack_USER_DEVICE` in the letters Home Assistant allows in one.
    ///
    /// A name with any other character (a space, a dot, an accent, an emoji), or with `_`,
    /// which would make `USER_DEVICE` ambiguous ("a_b" and "c" against "a" and "b_c"), also
    /// gets a hash of the exact user and device (`geotrack_Zo___3f2a9c10`): otherwise "a b" and
    /// "a_b", or two emoji, would share one config, and each device's announcement would
    /// replace the other's. Names of letters, digits and `-` keep their plain id.
    package static func objectID(_ topic: OwnTracksTopic) -> String {
        let raw = "geotrack_\(topic.user)_\(topic.device)"
        let plain = { (name: String) in name.unicodeScalars.allSatisfy { isAllowed($0) && $0 != "_" } }
        let id = String(String.UnicodeScalarView(raw.unicodeScalars.map { isAllowed($0) ? $0 : "_" }))
        guard !(plain(topic.user) && plain(topic.device)) else { return id }
        let hash = fnv1a32(Array("\(topic.user)/\(topic.device)".utf8))
        let hex = String(hash, radix: 16)
        return id + "_" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": true
        default: false
        }
    }

    /// FNV-1a, 32 bits: stable across runs and releases (a discovery id must never change for
    /// the same names), unlike Swift's seeded `Hasher`.
    static func fnv1a32(_ bytes: [UInt8]) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }

    /// `id` as the object part of an entity id, by Home Assistant's rule for one: lower-case
    /// letters, digits and single `_` between them (`geotrack_ann_Boat-1` gives
    /// `geotrack_ann_boat_1`). The discovery id keeps upper case and `-`, and may hold `__`
    /// where other characters were; an entity id with them would be refused.
    static func entityObjectID(_ id: String) -> String {
        var result = ""
        for scalar in id.unicodeScalars {
            switch scalar {
            case "a"..."z", "0"..."9": result.unicodeScalars.append(scalar)
            case "A"..."Z": result.unicodeScalars.append(Unicode.Scalar(scalar.value + 32) ?? "_")
            default: if !result.isEmpty, !result.hasSuffix("_") { result += "_" }
            }
        }
        while result.hasSuffix("_") { result.removeLast() }
        return result
    }

    /// `homeassistant/device_tracker/ID/config`.
    package static func configTopic(_ topic: OwnTracksTopic) -> String {
        "\(prefix)/device_tracker/\(objectID(topic))/config"
    }

    /// The config: a GPS device tracker whose attributes are the OwnTracks location's `lat`,
    /// `lon` and `acc`, under the names Home Assistant reads a position from (none from a
    /// message without a `lat`, such as the last will).
    package static func config(_ topic: OwnTracksTopic) -> [UInt8] {
        let id = objectID(topic)
        var writer = JSONWriter()
        // The tracker is the device's main feature, so the entity takes the device's name: Home
        // Assistant shows an entity as "DEVICE ENTITY", and its documented way to show the
        // device's name alone is a null entity name (a name equal to the device's reads "pi pi").
        writer.raw(#"{"name":null"#)
        writer.stringField(#","unique_id":"#, id)
        // The entity id it starts as. Home Assistant deprecated `object_id` for this in 2025.10
        // and stopped reading it in 2026.4; `default_entity_id` takes the whole entity id.
        writer.stringField(#","default_entity_id":"#, "device_tracker." + entityObjectID(id))
        writer.stringField(#","json_attributes_topic":"#, topic.description)
        // The last will arrives on the same topic ({"_type":"lwt"}, as OwnTracks' apps send
        // it): without a `lat` it gives no attributes, where reading its missing `lat` would
        // fail the template and Home Assistant log an error each time the connection drops.
        writer.stringField(#","json_attributes_template":"#,
                           #"{{ ({"latitude": value_json.lat, "longitude": value_json.lon, "gps_accuracy": value_json.acc | default(0)} if value_json.lat is defined else {}) | tojson }}"#)
        writer.stringField(#","source_type":"#, "gps")
        writer.stringField(#","device":{"identifiers":["#, id)
        writer.stringField(#"],"name":"#, topic.device)
        writer.raw(#","manufacturer":"GeoTrack","model":"geotrack"}}"#)
        return writer.withBytes { Array($0) }
    }
}
