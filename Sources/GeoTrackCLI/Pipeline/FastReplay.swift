/// `replay FILE` as fast as possible: the synchronous reader, no pacing, no service group.
package enum FastReplay {
    /// Replays `path` to the outputs.
    package static func run(path: String, options: OutputOptions, settings: Settings) async throws(CLIError) {
        throw CLIError(.failure, "this build has no NMEA replay yet (the NMEA layer is not merged)")
    }
}
