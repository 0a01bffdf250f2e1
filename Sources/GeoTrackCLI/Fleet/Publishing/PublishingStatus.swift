/// What the status line says about `--publish`: how many messages wait in the outbox for
/// brokers that cannot take them now, and why. Nothing is said while every broker is connected
/// or still connecting the first time: messages then wait only for the network's round trip.
package struct PublishingStatus: Sendable, Hashable {
    /// Messages in the outbox for the brokers that are not connected.
    package var queued: Int
    /// Why they wait: "broker unreachable", or "broker refused the login"; empty when none waits.
    package var problem: String
    /// Messages set aside as undeliverable in this run (dead letters: never sent).
    package var setAside = 0
    /// Why the last was, in short: "the server answered 400 (Bad Request)".
    package var setAsideReason = ""

    /// Creates a status.
    package init(queued: Int, problem: String, setAside: Int = 0, setAsideReason: String = "") {
        self.queued = queued
        self.problem = problem
        self.setAside = setAside
        self.setAsideReason = setAsideReason
    }

    /// `55 queued, broker unreachable`, `3 set aside as undeliverable: the server answered 400
    /// (Bad Request)`, or both.
    package var text: String {
        let waiting = "\(queued) queued, \(problem)"
        guard setAside > 0 else { return waiting }
        let aside = "\(setAside) set aside as undeliverable: \(setAsideReason)"
        return problem.isEmpty ? aside : waiting + "; " + aside
    }

    /// The counts alone, for a line short of room: `55 queued`, `3 set aside`, or both.
    package var shortText: String {
        var parts: [String] = []
        if !problem.isEmpty { parts.append("\(queued) queued") }
        if setAside > 0 { parts.append("\(setAside) set aside") }
        return parts.joined(separator: "; ")
    }
}
