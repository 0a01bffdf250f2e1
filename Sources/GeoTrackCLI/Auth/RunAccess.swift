import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// The location access one run of a command that reads gpsd holds: decided before anything is
/// shown, as ``AuthorizationGate`` decides it, and kept in step with later decisions until the
/// run ends. `watch`, `sky` and `serve` take it the same way; a replay takes none (it is the
/// user's own data).
package struct RunAccess: Sendable {
    /// The store the run's location manager reads: the stored decisions, or the run's own when
    /// access was allowed once.
    package let store: AuthorizationStore
    private let follower: Task<Void, Never>?

    /// Asks for access if it is undecided (at a terminal; never without one), and, with a
    /// `precise` purpose, for precise locations in this run when only approximate ones are
    /// allowed. Throws what ends the run: 77 denied, 79 undecided without a terminal.
    package init(precise purpose: String? = nil) throws(CLIError) {
        let stored = AuthorizationStore()
        let gate = AuthorizationGate(store: stored)
        var access = try gate.requireAccess()
        if let purpose {
            let (refined, note) = try gate.requestFullAccuracy(for: access, purpose: purpose)
            access = refined
            if let note { Terminal.write("geotrack: \(note)\n", to: STDERR_FILENO) }
        }
        store = access.store(default: stored)
        follower = access.followDecisions(of: stored)
    }

    /// Access for a run that replays `replay`, or reads gpsd when it is nil: none for a replay.
    package static func unlessReplaying(_ replay: String?) throws(CLIError) -> RunAccess? {
        replay == nil ? try RunAccess() : nil
    }

    /// Stops following decisions: call it when the run ends.
    package func end() {
        follower?.cancel()
    }
}
