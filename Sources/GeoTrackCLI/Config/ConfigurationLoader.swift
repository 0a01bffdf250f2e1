import Configuration
import Foundation
import SystemPackage

/// Resolves ``Settings`` through swift-configuration: flags, then `GEOTRACK_*` environment
/// variables, then the user's YAML file, then the built-in defaults.
///
/// Every value is read as text and checked here, so a bad value is reported the same way
/// whichever layer it came from: its key, the value, what is allowed, and where it was set.
package struct ConfigurationLoader: Sendable {
    /// Values given on the command line, by configuration key.
    package var flags: [String: String]
    /// The process environment.
    package var environment: [String: String]
    /// The configuration file given with `--config`, if any.
    package var explicitFile: String?

    /// Creates a loader.
    package init(flags: [String: String] = [:], environment: [String: String] = ProcessInfo.processInfo.environment,
                 explicitFile: String? = nil) {
        self.flags = flags
        self.environment = environment
        self.explicitFile = explicitFile
    }

    /// The file to read: `--config`, else `GEOTRACK_CONFIG`, else `$XDG_CONFIG_HOME/geotrack/config.yaml`
    /// (`~/.config/geotrack/config.yaml`); and whether it must exist.
    package var userFile: (path: String, required: Bool) {
        if let explicitFile { return (explicitFile, true) }
        if let path = environment["GEOTRACK_CONFIG"], !path.isEmpty { return (path, true) }
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        return (base + "/geotrack/config.yaml", false)
    }

    /// Reads and checks every setting; `warn` receives one line per unknown key.
    package func load(warn: (String) -> Void) async throws(CLIError) -> Settings {
        let (path, required) = userFile
        if required, !FileManager.default.fileExists(atPath: path) {
            throw CLIError(.config, "config: file \(path) does not exist. Check the path given with --config or GEOTRACK_CONFIG.")
        }
        let file: any ConfigProvider
        let fileKeys: [String]
        if Self.hasContent(path) {
            do {
                let provider = try await FileProvider<YAMLSnapshot>(filePath: FilePath(path), allowMissing: true)
                fileKeys = Self.keys(in: String(reflecting: provider))
                file = provider
            } catch {
                throw CLIError(.config, "config: cannot read \(path): \(Self.oneLine(error)) Fix the YAML or move the file away.")
            }
        } else {
            // YAML with nothing but comments has no top-level mapping, which the YAML provider rejects.
            file = InMemoryProvider(name: path, values: [:])
            fileKeys = []
        }
        for key in fileKeys where !Self.isKnown(key) {
            warn("geotrack: warning: unknown configuration key '\(key)' in \(path) (ignored)")
        }
        let knownEnvironment = Set(ConfigKeys.all.map(ConfigKeys.environmentName) + ConfigKeys.otherEnvironment)
        for name in environment.keys.sorted() where name.hasPrefix("GEOTRACK_") && !knownEnvironment.contains(name) {
            warn("geotrack: warning: unknown environment variable \(name) (ignored)")
        }
        let environmentValues = environment.filter { $0.key.hasPrefix("GEOTRACK_") }
        let reader = ConfigReader(providers: [
            InMemoryProvider(name: "flags", values: Self.values(flags)),
            EnvironmentVariablesProvider(environmentVariables: environmentValues).prefixKeys(with: "geotrack"),
            file,
        ])
        // `regions:` with nothing under it is fine; a list or a single value there is not.
        let regionsKey = ConfigKey(ConfigKeys.regions)
        if fileKeys.contains(ConfigKeys.regions),
           !(reader.stringArray(forKey: regionsKey) ?? []).isEmpty || !(reader.string(forKey: regionsKey) ?? "").isEmpty {
            throw CLIError(.config, "config: regions in \(path) must be a mapping of names to latitude, longitude and radius")
        }
        var resolver = Resolver(reader: reader, loader: self, filePath: path, fileKeys: Set(fileKeys))
        return try resolver.settings(regionNames: Self.regionNames(in: fileKeys))
    }

    /// Whether a file exists and has something besides blank lines and comments.
    static func hasContent(_ path: String) -> Bool {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            // Missing is fine (allowMissing); unreadable is reported by the provider.
            return FileManager.default.fileExists(atPath: path)
        }
        return text.split(whereSeparator: \.isNewline).contains { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !trimmed.hasPrefix("#") && trimmed != "---"
        }
    }

    /// Turns `key → text` pairs into an in-memory provider's values.
    static func values(_ strings: [String: String]) -> [AbsoluteConfigKey: ConfigValue] {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, value) in strings {
            values[AbsoluteConfigKey(ConfigKey(key))] = ConfigValue(.string(value), isSecret: false)
        }
        return values
    }

    /// Whether a flattened file key is one geotrack reads.
    package static func isKnown(_ key: String) -> Bool {
        if ConfigKeys.all.contains(key) || key == ConfigKeys.regions { return true }
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0] == "regions" && ConfigKeys.regionFields.contains(String(parts[2]))
    }

    /// Region names: the middle component of `regions.NAME.FIELD` keys, in file order of names.
    static func regionNames(in keys: [String]) -> [String] {
        var names: [String] = []
        for key in keys {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 3, parts[0] == "regions", !names.contains(String(parts[1])) {
                names.append(String(parts[1]))
            }
        }
        return names
    }

    /// The flattened keys of a file provider, read from its debug description
    /// (`NAME[N values: key=value, key=value]`), the only listing swift-configuration 1.4 offers.
    /// A unit test pins this format, so a change in the library shows up there.
    package static func keys(in debugDescription: String) -> [String] {
        guard let start = debugDescription.range(of: " values: ") else { return [] }
        let body = debugDescription[start.upperBound...].dropLast()
        var keys: [String] = []
        for entry in body.components(separatedBy: ", ") {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            let key = String(entry[..<equals])
            // A value that itself contains ", x=y" would yield a false key; real keys have no spaces.
            guard !key.isEmpty, !key.contains(" ") else { continue }
            keys.append(key)
        }
        return keys.sorted()
    }

    /// An error's text on one line, ending in exactly one full stop.
    static func oneLine(_ error: any Error) -> String {
        var text = String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        while text.hasSuffix(".") { text.removeLast() }
        return text + "."
    }
}
