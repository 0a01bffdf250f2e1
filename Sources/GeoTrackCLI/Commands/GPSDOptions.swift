import ArgumentParser

/// Where gpsd is, for the commands that talk to it (`watch`, `devices`).
package struct GPSDOptions: ParsableArguments {
    @Option(name: .customLong("gpsd"), help: ArgumentHelp("gpsd's address (default localhost:2947).", valueName: "host:port"))
    package var address: GPSDAddress?

    package init() {}

    /// The configuration keys these flags set, for the top layer of the configuration.
    package var configurationFlags: [String: String] {
        var flags: [String: String] = [:]
        if let host = address?.host { flags[ConfigKeys.gpsdHost] = host }
        if let port = address?.port { flags[ConfigKeys.gpsdPort] = String(port) }
        return flags
    }
}
