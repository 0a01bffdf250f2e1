import Configuration
import GPSD
import OwnTracks

extension ConfigurationLoader {
    /// Reads each key the command line does not set through the layered reader, and checks it.
    struct Resolver {
        let reader: ConfigReader
        let loader: ConfigurationLoader
        let filePath: String
        /// The file's own keys, which tell a value of the wrong shape from one not given.
        let file: ConfigFile

        mutating func settings(regionNames: [String]) throws(CLIError) -> Settings {
            var settings = Settings()
            if var host = try text(ConfigKeys.gpsdHost, allowed: "a host name or address, such as localhost") {
                let allowed = "a host name or address without a port, such as localhost or ::1 (the port is gpsd.port)"
                // An IPv6 address as --gpsd writes it, [::1], is the address ::1.
                if host.count > 2, host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
                // One colon is HOST:PORT as --gpsd takes it, which was looked up as a host name and
                // "did not resolve"; two or more make an IPv6 address.
                guard !host.isEmpty, !host.contains(where: \.isWhitespace), !host.contains("["), !host.contains("]"),
                      host.filter({ $0 == ":" }).count != 1
                else {
                    throw bad(ConfigKeys.gpsdHost, host, allowed)
                }
                settings.gpsdHost = host
            }
            if let port = try text(ConfigKeys.gpsdPort, allowed: "a TCP port from 1 to 65535") {
                guard let number = Int(port), (1...65_535).contains(number) else {
                    throw bad(ConfigKeys.gpsdPort, port, "a TCP port from 1 to 65535")
                }
                settings.gpsdPort = number
            }
            if let device = try text(ConfigKeys.gpsdDevice, allowed: "a device path such as /dev/ttyACM0") {
                guard device.isEmpty || GPSDConfiguration.isValidDevice(device) else {
                    throw bad(ConfigKeys.gpsdDevice, Terminal.safe(device), "a device path such as /dev/ttyACM0 (letters, digits and / . _ - + : @ , ~)")
                }
                settings.device = device.isEmpty ? nil : device
            }
            if let units = try text(ConfigKeys.units, allowed: Units.allCases.map(\.rawValue).joined(separator: ", ")) {
                guard let value = Units(rawValue: units) else {
                    throw bad(ConfigKeys.units, units, Units.allCases.map(\.rawValue).joined(separator: ", "))
                }
                settings.units = value
            }
            if let format = try text(ConfigKeys.format, allowed: CoordinateFormat.allCases.map(\.rawValue).joined(separator: ", ")) {
                guard let value = CoordinateFormat(rawValue: format) else {
                    throw bad(ConfigKeys.format, format, CoordinateFormat.allCases.map(\.rawValue).joined(separator: ", "))
                }
                settings.format = value
            }
            settings.distanceFilter = try number(ConfigKeys.distanceFilter, default: settings.distanceFilter, minimum: 0)
            settings.accuracyFilter = try number(ConfigKeys.accuracyFilter, default: settings.accuracyFilter, minimum: 0)
            if let visits = try text(ConfigKeys.visits, allowed: "true or false") {
                switch visits.lowercased() {
                case "true", "yes", "on", "1": settings.visits.enabled = true
                case "false", "no", "off", "0": settings.visits.enabled = false
                default: throw bad(ConfigKeys.visits, visits, "true or false")
                }
            }
            settings.visits.radius = try number(ConfigKeys.visitRadius, default: settings.visits.radius, minimum: 0, exclusive: true)
            // Bounded as --timeout is: a dwell of 10^16 seconds overflowed the manager's duration and
            // stopped geotrack on a trap, and no visit lasts longer than a year.
            settings.visits.dwell = try number(ConfigKeys.visitDwell, default: settings.visits.dwell, minimum: 0, exclusive: true,
                                               maximum: VisitSettings.maximumDwell)
            settings.gpx.minimumMove = try number(ConfigKeys.gpxMinimumMove, default: settings.gpx.minimumMove, minimum: 0)
            settings.gpx.minimumInterval = try number(ConfigKeys.gpxMinimumInterval, default: settings.gpx.minimumInterval, minimum: 0)
            settings.gpx.segmentAfter = try number(ConfigKeys.gpxSegmentAfter, default: settings.gpx.segmentAfter, minimum: 0, exclusive: true)
            settings.gpx.syncInterval = try number(ConfigKeys.gpxSyncInterval, default: settings.gpx.syncInterval, minimum: 0, exclusive: true)
            for name in regionNames {
                settings.regions.append(try region(name))
            }
            settings.publish = try publish()
            return settings
        }

        /// The `publish:` section: each destination must be a URL `--publish` takes, and the
        /// names what `--publish-user` and `--publish-device` take.
        func publish() throws(CLIError) -> PublishSettings {
            var result = PublishSettings()
            let key = ConfigKeys.publishDestinations
            // A list in the file; in the environment, URLs separated by commas.
            var urls: [String] = []
            if let text = reader.string(forKey: ConfigKey(key)) {
                urls = text.split(separator: ",").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
                    .filter { !$0.isEmpty }
            } else if case .list(let items) = file[key] {
                urls = items
            }
            for url in urls {
                do {
                    _ = try PublishDestination(url: url)
                } catch {
                    // The URL itself is not repeated: it may hold a password, which is refused.
                    throw CLIError(.config, "config: \(key) \(origin(key)): \(error.message)")
                }
            }
            result.destinations = urls
            for (key, path) in [(ConfigKeys.publishUser, \PublishSettings.user), (ConfigKeys.publishDevice, \PublishSettings.device)] {
                guard let name = try text(key, allowed: "a name of 1 to 256 bytes without /, +, # or control characters"), !name.isEmpty else { continue }
                guard OwnTracksTopic.isValidPart(name) else { throw bad(key, name, "a name of 1 to 256 bytes without /, +, # or control characters") }
                result[keyPath: path] = name
            }
            if let flag = try text(ConfigKeys.publishHomeAssistant, allowed: "true or false") {
                switch flag.lowercased() {
                case "true", "yes", "on", "1": result.homeAssistant = true
                case "false", "no", "off", "0": result.homeAssistant = false
                default: throw bad(ConfigKeys.publishHomeAssistant, flag, "true or false")
                }
            }
            return result
        }

        func region(_ name: String) throws(CLIError) -> RegionSetting {
            switch file["regions.\(name)"] {
            case .scalar, .list:
                throw CLIError(.config, "config: region '\(name)' in \(filePath) is one value; give it latitude, longitude and radius, indented under it")
            case .null, nil:
                break
            }
            // Half the Earth's circumference: every point is within it.
            let fields: [(name: String, range: ClosedRange<Double>, allowed: String)] = [
                ("latitude", -90...90, "degrees from -90 to 90"),
                ("longitude", -180...180, "degrees from -180 to 180"),
                ("radius", 0...20_000_000, "a radius in metres, more than 0 and at most 20000000"),
            ]
            var values: [String: String] = [:]
            for field in fields {
                values[field.name] = try text("regions.\(name).\(field.name)", allowed: field.allowed)
            }
            // Every field missing is named at once: one run to fix them, not one per field.
            let missing = fields.map(\.name).filter { values[$0] == nil }
            guard missing.isEmpty else {
                let list = missing.count == 1 ? missing[0] : missing.dropLast().joined(separator: ", ") + " or " + (missing.last ?? "")
                throw CLIError(.config, "config: region '\(name)' has no \(list) (in \(filePath)). Give latitude, longitude and radius.")
            }
            var numbers: [String: Double] = [:]
            for field in fields {
                let value = values[field.name] ?? ""
                guard let number = Double(value), field.range.contains(number) else {
                    throw bad("regions.\(name).\(field.name)", value, field.allowed)
                }
                numbers[field.name] = number
            }
            let radius = numbers["radius"] ?? 0
            guard radius > 0 else { throw bad("regions.\(name).radius", "0", "a radius in metres, more than 0 and at most 20000000") }
            return RegionSetting(name: name, latitude: numbers["latitude"] ?? 0, longitude: numbers["longitude"] ?? 0,
                                 radius: radius)
        }

        /// The text set for `key`, or `nil` when no layer sets it (`key: ~` and `key:` set nothing)
        /// or when the command line does (its typed value is applied after).
        /// A value that is there but is not one value (`port: [1, 2]`, `units: {a: b}`) is an error,
        /// not "unset": the reader alone cannot tell the two apart, so the file's own keys decide.
        func text(_ key: String, allowed: String) throws(CLIError) -> String? {
            // The command line's value replaces the layers below without their being read.
            if loader.overrides.keys.contains(key) { return nil }
            if let value = reader.string(forKey: ConfigKey(key)) { return value }
            if case .list = file[key] {
                throw CLIError(.config, "config: \(key) in \(filePath) is a list, not one value; use \(allowed)")
            }
            if file.keys.contains(where: { $0.hasPrefix(key + ".") }) {
                throw CLIError(.config, "config: \(key) in \(filePath) is a mapping, not one value; use \(allowed)")
            }
            return nil
        }

        func number(_ key: String, default value: Double, minimum: Double, exclusive: Bool = false,
                    maximum: Double? = nil) throws(CLIError) -> Double {
            var allowed = exclusive ? "a number of more than \(Int(minimum))" : "a number of at least \(Int(minimum))"
            if let maximum { allowed += " and at most \(Int(maximum))" }
            guard let string = try text(key, allowed: allowed) else { return value }
            guard let number = Double(string), number.isFinite,
                  exclusive ? number > minimum : number >= minimum,
                  number <= maximum ?? .infinity
            else { throw bad(key, string, allowed) }
            return number
        }

        /// Where `key` was set: its environment variable, else the file.
        func origin(_ key: String) -> String {
            loader.environment[ConfigKeys.environmentName(key)] != nil ? "in \(ConfigKeys.environmentName(key))" : "in \(filePath)"
        }

        /// The error for a bad value, naming where it was set.
        func bad(_ key: String, _ value: String, _ allowed: String) -> CLIError {
            let variable = ConfigKeys.environmentName(key)
            // `export GEOTRACK_GPSD_PORT=` looks like clearing it, but sets it to nothing: say how to clear it.
            if value.isEmpty, loader.environment[variable] != nil {
                return CLIError(.config, "config: \(key) = '' in \(variable) is not allowed; use \(allowed), or 'unset \(variable)' for the file's value or the default")
            }
            return CLIError(.config, "config: \(key) = '\(value)' \(origin(key)) is not allowed; use \(allowed)")
        }
    }
}
