extension Settings {
    /// Loads the layered configuration for a command, printing warnings for unknown keys on stderr.
    package static func load(overrides: SettingsOverrides, explicitFile: String?) async throws(CLIError) -> Settings {
        try await ConfigurationLoader(overrides: overrides, explicitFile: explicitFile)
            .load(warn: { Terminal.standardError($0) })
    }
}
