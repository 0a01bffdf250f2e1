/// Asks the user for location access: a terminal question, a desktop dialog, or a test double.
///
/// ``LocationManager`` calls it when authorization is requested while the status is
/// ``AuthorizationStatus/notDetermined``; the decision is then saved in the ``AuthorizationStore``.
public protocol AuthorizationPrompter: Sendable {
    /// Asks the user, and returns their answer.
    func requestAuthorization(for level: AuthorizationLevel) async -> AuthorizationDecision
}
