/// The answers the terminal prompt offers.
package enum AuthorizationAnswer: String, Sendable, CaseIterable {
    /// Allowed for this run only; nothing is stored.
    case once
    /// Allowed from now on (stored as `authorizedAlways`).
    case always
    /// Allowed from now on, approximate locations only (stored as `authorizedAlways reducedAccuracy`).
    case approximate
    /// Refused (stored as `denied`).
    case deny
}
