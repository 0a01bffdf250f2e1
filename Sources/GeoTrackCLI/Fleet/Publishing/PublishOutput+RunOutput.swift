import GeoTrackService

/// `--publish`: each location and event queued in the outbox for its destinations. Its close
/// is the session's (``TrackerSession``): it waits, within `--publish-wait`, for the senders.
extension PublishOutput: BuiltInOutput {
    /// Whether anything is to be published: `--publish`, the configuration's
    /// `publish.destinations`, or `--publish-home-assistant` (refused without a broker).
    package static func isRequested(_ context: OutputContext) -> Bool {
        !context.options.publish.urls.isEmpty || !context.settings.publish.destinations.isEmpty
            || context.options.publish.homeAssistant
    }

    /// The output for `--publish`, or for the configuration's `publish.destinations` when the
    /// command line names none; the configuration's user, device and Home Assistant setting
    /// stand where no flag is given.
    package static func make(_ context: OutputContext) throws(CLIError) -> (any RunOutput)? {
        var options = context.options.publish
        let configured = context.settings.publish
        let fromConfiguration = options.urls.isEmpty && !configured.destinations.isEmpty
        if options.urls.isEmpty { options.urls = configured.destinations }
        if options.user == nil { options.user = configured.user }
        if options.device == nil { options.device = configured.device }
        if !options.homeAssistant { options.homeAssistant = configured.homeAssistant }
        // Home Assistant is told of the device on a broker: asked for on the command line, one is
        // needed; asked for in the configuration, one is needed only where something is published.
        if options.homeAssistant, !options.urls.contains(where: { (try? PublishDestination(url: $0))?.isHTTP == false }) {
            if context.options.publish.homeAssistant {
                throw CLIError(.usage, "--publish-home-assistant announces the device on an MQTT broker; give --publish mqtt://HOST (or mqtts://), or an mqtt:// URL in publish.destinations")
            }
            if fromConfiguration {
                throw CLIError(.config, "config: publish.home_assistant announces the device on an MQTT broker; add an mqtt:// URL to publish.destinations")
            }
        }
        return try PublishOutput.make(options: options, environment: context.environment)
    }
}
