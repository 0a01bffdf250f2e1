/// An output that ``TrackerOutputs`` makes itself when the command line or the configuration
/// asks for it (GPX, statistics, the picture, publishing, JSON lines, the progress bar).
///
/// Whether it is asked for is its own to say, once: ``make(_:)`` makes nothing without it, and
/// the fast `replay --json` path asks every output before it bypasses them all, so that an
/// output is never skipped because a list elsewhere did not name it.
package protocol BuiltInOutput: RunOutput {
    /// Whether the options or the settings ask for this output (or for something that
    /// ``make(_:)`` refuses with an error).
    static func isRequested(_ context: OutputContext) -> Bool
    /// The output, or nil when it is not asked for (or, asked for, has nothing to do here).
    static func make(_ context: OutputContext) throws(CLIError) -> (any RunOutput)?
}
