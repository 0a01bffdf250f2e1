/// The user's answer to an authorization prompt.
public enum AuthorizationDecision: Sendable, Hashable {
    /// The user allowed access.
    case granted
    /// The user allowed approximate locations only (``AccuracyAuthorization/reducedAccuracy``).
    case grantedApproximate
    /// The user refused access.
    case denied
    /// The user closed the prompt without deciding; the status stays undetermined.
    case dismissed
}
