import ArgumentParser

/// Where gpsd is, for the commands that talk to it (`watch`, `devices`).
package struct GPSDOptions: ParsableArguments {
    // Parsed by a transform rather than `init?(argument:)`, so that a refused address says why.
    @Option(name: .customLong("gpsd"), help: ArgumentHelp("gpsd's address (default localhost:2947).", valueName: "host:port"),
            completion: .default, transform: GPSDAddress.parse)
    package var address: GPSDAddress? = nil

    package init() {}

    /// What these flags set, with the command's `--device` if it has one, for the top layer of
    /// the configuration.
    package func settingsOverrides(device: String?) -> SettingsOverrides {
        var overrides = SettingsOverrides()
        overrides.gpsdHost = address?.host
        overrides.gpsdPort = address?.port
        overrides.device = device
        return overrides
    }
}
