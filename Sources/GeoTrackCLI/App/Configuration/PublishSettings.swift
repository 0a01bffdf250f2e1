/// The `publish:` section: destinations and names used when the command line gives none.
package struct PublishSettings: Sendable, Equatable {
    /// URLs, as `--publish` takes them (checked when read).
    package var destinations: [String] = []
    /// `--publish-user`'s default, when set.
    package var user: String?
    /// `--publish-device`'s default, when set.
    package var device: String?
    /// `--publish-home-assistant`'s default.
    package var homeAssistant = false
}
