import Configuration
import FoundationEssentials
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// Resolves ``Settings``: the command line's typed ``SettingsOverrides`` over what
/// swift-configuration reads from the `GEOTRACK_*` environment variables, then the user's YAML
/// file, then the built-in defaults.
///
/// Every value of those layers is read as text and checked here, so a bad value is reported the
/// same way whichever layer it came from: its key, the value, what is allowed, and where it was
/// set. The command line's values were checked when parsed, and are applied as they are.
package struct ConfigurationLoader: Sendable {
    /// What the command line sets.
    package var overrides: SettingsOverrides
    /// The process environment.
    package var environment: [String: String]
    /// The configuration file given with `--config`, if any.
    package var explicitFile: String?

    /// Creates a loader.
    package init(overrides: SettingsOverrides = SettingsOverrides(),
                 environment: [String: String] = ProcessInfo.processInfo.environment, explicitFile: String? = nil) {
        self.overrides = overrides
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
            base = (environment["HOME"] ?? passwordDatabaseHome()) + "/.config"
        }
        return (base + "/geotrack/config.yaml", false)
    }

    /// Reads and checks every setting; `warn` receives one line per unknown key.
    package func load(warn: (String) -> Void) async throws(CLIError) -> Settings {
        let (path, required) = userFile
        let found: ConfigFile?
        do {
            found = try ConfigFile.load(path: path)
        } catch {
            // A line at fault is the YAML's; none, the file's own (a folder, no permission, too large).
            let advice = error.line == nil ? "Give a readable YAML file, or move this one away." : "Fix the YAML or move the file away."
            throw CLIError(.config, "config: cannot read \(path): \(Self.oneLine(error)) \(advice)")
        }
        if required, found == nil {
            throw CLIError(.config, "config: file \(path) does not exist. Check the path given with --config or GEOTRACK_CONFIG.")
        }
        let file = found ?? ConfigFile()
        // A section written as one value (`gpsd: localhost`) sets none of its keys: it was read as
        // an unknown key and ignored, and geotrack ran on the defaults.
        for entry in file.entries where entry.value != .null {
            let fields = ConfigKeys.all.filter { $0.hasPrefix(entry.key + ".") }.map { $0.dropFirst(entry.key.count + 1) }
            guard !fields.isEmpty else { continue }
            throw CLIError(.config, "config: \(entry.key) in \(path) is a section, not one value; write its keys under it, indented: "
                + fields.joined(separator: ", "))
        }
        for entry in file.entries where !Self.isKnown(entry.key) && !Self.isEmptySection(entry) {
            // Shown safely, as every string from the configuration: a key is the file's text.
            warn("geotrack: warning: unknown configuration key '\(Terminal.safe(entry.key))' in \(Terminal.safe(path)) (ignored); "
                + Terminal.safe(Self.hint(forKey: entry.key)))
        }
        // A region's fields are keys too (GEOTRACK_REGIONS_HOME_RADIUS): read for the regions the
        // file names, so they are no unknown variables.
        let regionKeys = Self.regionNames(in: file.keys).flatMap { name in ConfigKeys.regionFields.map { "regions.\(name).\($0)" } }
        let knownEnvironment = Set((ConfigKeys.all + regionKeys).map(ConfigKeys.environmentName) + ConfigKeys.otherEnvironment)
        for name in environment.keys.sorted() where name.hasPrefix("GEOTRACK_") && !knownEnvironment.contains(name) {
            warn("geotrack: warning: unknown environment variable \(Terminal.safe(name)) (ignored); " + Terminal.safe(Self.hint(forVariable: name)))
        }
        let environmentValues = environment.filter { $0.key.hasPrefix("GEOTRACK_") }
        let reader = ConfigReader(providers: [
            EnvironmentVariablesProvider(environmentVariables: environmentValues).prefixKeys(with: "geotrack"),
            InMemoryProvider(name: path, values: Self.values(file)),
        ])
        // `regions:` with nothing under it is fine; a list or a single value there is not.
        switch file[ConfigKeys.regions] {
        case .scalar(let text) where !text.isEmpty:
            throw CLIError(.config, "config: regions in \(path) must be a mapping of names to latitude, longitude and radius")
        case .list(let items) where !items.isEmpty:
            throw CLIError(.config, "config: regions in \(path) must be a mapping of names to latitude, longitude and radius")
        default:
            break
        }
        var resolver = Resolver(reader: reader, loader: self, filePath: path, file: file)
        var settings = try resolver.settings(regionNames: Self.regionNames(in: file.keys))
        overrides.apply(to: &settings)
        return settings
    }

    /// Whether an entry is a known section left empty (`gpsd:` or `display: {}`), which sets
    /// nothing and deserves no warning.
    static func isEmptySection(_ entry: ConfigFile.Entry) -> Bool {
        entry.value == .null && ConfigKeys.all.contains { $0.hasPrefix(entry.key + ".") }
    }

    /// A file's values for an in-memory provider: a key without a value is left out, so
    /// the layers below it (the defaults) decide.
    static func values(_ file: ConfigFile) -> [AbsoluteConfigKey: ConfigValue] {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for entry in file.entries {
            let content: ConfigContent
            switch entry.value {
            case .scalar(let text): content = .string(text)
            case .list(let items): content = .stringArray(items)
            case .null: continue
            }
            values[AbsoluteConfigKey(ConfigKey(entry.key))] = ConfigValue(content, isSecret: false)
        }
        return values
    }

    /// Whether a flattened file key is one geotrack reads.
    package static func isKnown(_ key: String) -> Bool {
        if ConfigKeys.all.contains(key) || key == ConfigKeys.regions { return true }
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        // `regions.NAME` alone is a region without fields, which the resolver refuses.
        return parts[0] == "regions" && (parts.count == 2 || parts.count == 3 && ConfigKeys.regionFields.contains(String(parts[2])))
    }

    /// What to write instead of an unknown file key: the known key of the same name in another
    /// section (`units` is `display.units`), else the keys of its section, else the sections.
    static func hint(forKey key: String) -> String {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.first == ConfigKeys.regions {
            return "a region is NAME: {latitude, longitude, radius}, its name without '.'"
        }
        let leaf = parts.last ?? key
        let sameLeaf = ConfigKeys.all.filter { $0.hasSuffix("." + leaf) && $0 != key }
        if !sameLeaf.isEmpty {
            return "did you mean " + sameLeaf.joined(separator: " or ") + "?"
        }
        let section = parts[0] + "."
        let fields = ConfigKeys.all.filter { $0.hasPrefix(section) }.map { $0.dropFirst(section.count) }
        if !fields.isEmpty {
            return "\(parts[0]) takes " + fields.joined(separator: ", ")
        }
        return "the sections are " + sections.joined(separator: ", ")
    }

    /// What to set instead of an unknown `GEOTRACK_` variable: the known one it is the end of
    /// (`GEOTRACK_UNITS` is `GEOTRACK_DISPLAY_UNITS`), else the variables of its section.
    static func hint(forVariable name: String) -> String {
        let rest = name.dropFirst("GEOTRACK_".count)
        let variables = ConfigKeys.all.map(ConfigKeys.environmentName)
        let ending = variables.filter { $0.hasSuffix("_" + rest) && $0 != name }
        if !ending.isEmpty {
            return "did you mean " + ending.joined(separator: " or ") + "?"
        }
        if rest.hasPrefix("REGIONS_") {
            return "a region's variables (GEOTRACK_REGIONS_HOME_RADIUS) are read for a region the file names"
        }
        for section in sections {
            let prefix = ConfigKeys.environmentName(section) + "_"
            if name.hasPrefix(prefix) {
                return "the \(section) variables are " + variables.filter { $0.hasPrefix(prefix) }.joined(separator: ", ")
            }
        }
        return "a variable is GEOTRACK_ and a key of the configuration file, dots as underscores (GEOTRACK_GPSD_HOST)"
    }

    /// The file's top-level sections, in the order config/geotrack.yaml has them.
    static var sections: [String] {
        var names: [String] = []
        for key in ConfigKeys.all + [ConfigKeys.regions] {
            let first = String(key.prefix { $0 != "." })
            if !names.contains(first) { names.append(first) }
        }
        return names
    }

    /// Region names: the middle component of `regions.NAME.FIELD` keys, and `NAME` of a region
    /// given no fields (`regions.NAME`), in file order of names.
    static func regionNames(in keys: [String]) -> [String] {
        var names: [String] = []
        for key in keys {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 2 || parts.count == 3, parts[0] == "regions", !names.contains(String(parts[1])) {
                names.append(String(parts[1]))
            }
        }
        return names
    }

    /// An error's text on one line, ending in exactly one full stop.
    static func oneLine(_ error: any Error) -> String {
        var text = String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        while text.hasSuffix(".") { text.removeLast() }
        return text + "."
    }
}
