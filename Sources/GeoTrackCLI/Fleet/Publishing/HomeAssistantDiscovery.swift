import GPSReports
import OwnTracks

/// Home Assistant's MQTT discovery for a device that publishes OwnTracks locations
/// (`--publish-home-assistant`): one retained config message under `homeassistant/` makes a
/// `device_tracker` whose position is read from the device's OwnTracks topic, so Home Assistant
/// shows it on its map without an OwnTracks integration or any YAML.
package enum HomeAssistantDiscovery {
    /// Home Assistant's default discovery prefix.
    package static let prefix = "homeassistant"

    /// The discovery id: `geotrack_USER_DEVICE`, in the letters Home Assistant allows in one
    /// (others become `_`), so two devices never share a config.
    package static func objectID(_ topic: OwnTracksTopic) -> String {
        let raw = "geotrack_\(topic.user)_\(topic.device)"
        return String(String.UnicodeScalarView(raw.unicodeScalars.map { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": scalar
            default: "_"
            }
        }))
    }

    /// `homeassistant/device_tracker/ID/config`.
    package static func configTopic(_ topic: OwnTracksTopic) -> String {
        "\(prefix)/device_tracker/\(objectID(topic))/config"
    }

    /// The config: a GPS device tracker whose attributes are the OwnTracks location's `lat`,
    /// `lon` and `acc`, under the names Home Assistant reads a position from.
    package static func config(_ topic: OwnTracksTopic) -> [UInt8] {
        let id = objectID(topic)
        var writer = JSONWriter()
        writer.stringField(#"{"name":"#, topic.device)
        writer.stringField(#","unique_id":"#, id)
        writer.stringField(#","object_id":"#, id)
        writer.stringField(#","json_attributes_topic":"#, topic.description)
        writer.stringField(#","json_attributes_template":"#,
                           #"{{ {"latitude": value_json.lat, "longitude": value_json.lon, "gps_accuracy": value_json.acc | default(0)} | tojson }}"#)
        writer.stringField(#","source_type":"#, "gps")
        writer.stringField(#","device":{"identifiers":["#, id)
        writer.stringField(#"],"name":"#, topic.device)
        writer.raw(#","manufacturer":"GeoTrack","model":"geotrack"}}"#)
        return writer.withBytes { Array($0) }
    }
}
