extension Settings {
    /// Loads the layered configuration for a command, printing warnings for unknown keys on stderr.
    package static func load(flags: [String: String], explicitFile: String?) async throws(CLIError) -> Settings {
        try await ConfigurationLoader(flags: flags, explicitFile: explicitFile)
            .load(warn: { Terminal.standardError($0) })
    }
}
