/// The user's answer to "may geotrack use your location?", as the CLI deals with it.
package enum AuthorizationChoice: String, Sendable, CaseIterable {
    /// Not asked yet.
    case notDetermined
    /// Allowed for this run only; never stored.
    case once
    /// Allowed from now on.
    case always
    /// Refused.
    case denied

    /// Whether location may be shown.
    package var allowsLocation: Bool { self == .once || self == .always }
}

/// Where the stored decision lives. LocationKit's `AuthorizationStore` conforms on integration.
package protocol AuthorizationStoring: Sendable {
    /// The stored decision (`.notDetermined` when none).
    func read() throws(CLIError) -> AuthorizationChoice
    /// Stores a decision (`.always` or `.denied`).
    func write(_ choice: AuthorizationChoice) throws(CLIError)
    /// Forgets the decision, so the next `watch` asks again.
    func reset() throws(CLIError)
    /// Where it is stored, for `auth status`.
    var location: String { get }
}
