/// What the status line says about `--publish`: how many messages wait in the outbox for
/// brokers that cannot take them now, and why. Nothing is said while every broker is connected
/// or still connecting the first time: messages then wait only for the network's round trip.
package struct PublishingStatus: Sendable, Hashable {
    /// Messages in the outbox for the brokers that are not connected.
    package var queued: Int
    /// Why they wait: "broker unreachable", or "broker refused the login".
    package var problem: String

    /// Creates a status.
    package init(queued: Int, problem: String) {
        self.queued = queued
        self.problem = problem
    }

    /// `55 queued, broker unreachable`.
    package var text: String { "\(queued) queued, \(problem)" }
}
