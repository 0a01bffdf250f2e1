import GeoTrackService

/// `--publish`: each location and event queued in the outbox for its destinations. Its close
/// is the session's (``TrackerSession``): it waits, within `--publish-wait`, for the senders.
extension PublishOutput: RunOutput {
    /// The output for `--publish`, when given.
    package static func make(_ context: OutputContext) throws(CLIError) -> (any RunOutput)? {
        try PublishOutput.make(options: context.options.publish, environment: context.environment)
    }
}
