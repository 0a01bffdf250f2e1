/// The configuration keys geotrack knows, in the dotted form the YAML file nests
/// and the environment spells `GEOTRACK_` + upper case with `_` (gpsd.host → GEOTRACK_GPSD_HOST).
package enum ConfigKeys {
    package static let gpsdHost = "gpsd.host"
    package static let gpsdPort = "gpsd.port"
    package static let gpsdDevice = "gpsd.device"
    package static let units = "display.units"
    package static let format = "display.format"
    package static let distanceFilter = "location.distance_filter"
    package static let accuracyFilter = "location.accuracy_filter"
    package static let visits = "location.visits"
    package static let visitRadius = "location.visit_radius"
    package static let visitDwell = "location.visit_dwell"
    package static let gpxMinimumMove = "gpx.min_move"
    package static let gpxMinimumInterval = "gpx.min_interval"
    package static let gpxSegmentAfter = "gpx.segment_after"
    package static let gpxSyncInterval = "gpx.sync_interval"
    /// Where watch and replay publish when no `--publish` is given: a list of URLs.
    package static let publishDestinations = "publish.destinations"
    package static let publishUser = "publish.user"
    package static let publishDevice = "publish.device"
    package static let publishHomeAssistant = "publish.home_assistant"
    /// The section whose entries are regions, each `regions.NAME.{latitude,longitude,radius}`.
    package static let regions = "regions"
    /// The fields of one region.
    package static let regionFields = ["latitude", "longitude", "radius"]

    /// Every fixed key.
    package static let all = [gpsdHost, gpsdPort, gpsdDevice, units, format, distanceFilter, accuracyFilter,
                              visits, visitRadius, visitDwell,
                              gpxMinimumMove, gpxMinimumInterval, gpxSegmentAfter, gpxSyncInterval,
                              publishDestinations, publishUser, publishDevice, publishHomeAssistant]

    /// The environment variable that overrides `key`.
    package static func environmentName(_ key: String) -> String {
        // Keys are ASCII; byte by byte, because the root command's description (its `--help`)
        // names two of them, it is built at every start, and Unicode's case mapping and
        // character classes cost a tenth of a millisecond there.
        let bytes = key.utf8.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 0x20
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): byte
            default: UInt8(ascii: "_")
            }
        }
        return "GEOTRACK_" + String(decoding: bytes, as: UTF8.self)
    }

    /// Environment variables that are not configuration keys but are still geotrack's: the
    /// broker's password is one (read by `--publish` and `fleet`), so setting it draws no warning.
    package static let otherEnvironment = ["GEOTRACK_CONFIG", "GEOTRACK_DEBUG", BrokerOptions.passwordVariable]
}
