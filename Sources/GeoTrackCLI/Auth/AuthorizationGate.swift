import FoundationEssentials
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// Decides, before anything is shown, whether `watch` may go on: asks at a terminal the first
/// time, never asks without one. The decision lives in LocationKit's ``AuthorizationStore``.
package struct AuthorizationGate: Sendable {
    /// What the run may use.
    package enum Access: Sendable, Equatable {
        /// The stored decision allows it.
        case stored(AuthorizationStatus)
        /// Allowed once: the run's decision lives in memory, never stored.
        case once(AuthorizationStore)

        /// The store a LocationManager should use for this access.
        package func store(default store: AuthorizationStore) -> AuthorizationStore {
            switch self {
            case .stored: store
            case .once(let memory): memory
            }
        }

        /// For a run allowed once, carries every later stored decision into the run's own: a
        /// `geotrack auth deny` (or an administrator's policy) from another terminal wins at once,
        /// as a `grant` does. Cancel the returned task when the run ends.
        package func followDecisions(of stored: AuthorizationStore) -> Task<Void, Never>? {
            guard case .once(let memory) = self, let changes = try? stored.changes() else { return nil }
            return Task {
                for await stored in changes {
                    switch stored.status {
                    case .denied, .restricted: try? memory.write(.denied)
                    case .authorizedAlways, .authorizedWhenInUse: try? memory.write(stored.status, accuracy: stored.accuracy)
                    case .notDetermined: continue
                    }
                }
            }
        }

        package static func == (lhs: Access, rhs: Access) -> Bool {
            switch (lhs, rhs) {
            case (.stored(let a), .stored(let b)): a == b
            case (.once(let a), .once(let b)): a === b
            default: false
            }
        }
    }

    let store: AuthorizationStore
    let interactive: Bool
    let prompter: TerminalPrompter

    /// A gate over `store`; interactive when stdin and stdout are both terminals.
    package init(store: AuthorizationStore, interactive: Bool, prompter: TerminalPrompter = TerminalPrompter()) {
        self.store = store
        self.interactive = interactive
        self.prompter = prompter
    }

    /// A gate that asks where a person is: on stdin and stdout when both are terminals, else on
    /// the controlling terminal (`/dev/tty`), as sudo, ssh and git do, so that
    /// `geotrack watch --json | jq .` still asks. Without a controlling terminal it never asks.
    package init(store: AuthorizationStore) {
        if Terminal.isTerminal(STDIN_FILENO) && Terminal.isTerminal(STDOUT_FILENO) {
            self.init(store: store, interactive: true)
            return
        }
        // Kept open for the process's life: the prompt may come back on it.
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        if tty >= 0 {
            self.init(store: store, interactive: true, prompter: TerminalPrompter(input: tty, output: tty))
        } else {
            self.init(store: store, interactive: false)
        }
    }

    /// The access the run has, or the error that ends it (77 denied, 79 undecided without a terminal).
    package func requireAccess() throws(CLIError) -> Access {
        let status = try Self.read(store)
        switch status {
        case .authorizedAlways, .authorizedWhenInUse:
            return .stored(status)
        case .denied:
            throw CLIError(.noPermission, "location access denied: run 'geotrack auth grant' to allow it")
        case .restricted:
            throw CLIError(.noPermission, "location access is disabled by the administrator policy in \(store.policyPath)")
        case .notDetermined:
            break
        }
        guard interactive else {
            throw CLIError(.authorizationRequired,
                           "location access has not been granted, and there is no terminal to ask on: run 'geotrack auth grant' first")
        }
        switch try prompter.ask() {
        case .always:
            try Self.write(.authorizedAlways, to: store)
            return .stored(.authorizedAlways)
        case .approximate:
            try Self.write(.authorizedAlways, accuracy: .reducedAccuracy, to: store)
            return .stored(.authorizedAlways)
        case .deny:
            try Self.write(.denied, to: store)
            throw CLIError(.noPermission, "location access denied: run 'geotrack auth grant' to allow it")
        case .once:
            return .once(AuthorizationStore.inMemory(.authorizedWhenInUse))
        }
    }

    /// `watch --precise`: when the access `granted` allows approximate locations only, asks at
    /// the terminal for precise ones in this run, as the first prompt asks. A yes gives the run
    /// an in-memory decision with full accuracy, never stored; a no, or no terminal to ask on,
    /// keeps the run approximate (the returned note says so) — it fails closed.
    package func requestFullAccuracy(for granted: Access, purpose: String) throws(CLIError) -> (Access, note: String?) {
        let current: StoredAuthorization
        switch granted {
        case .stored: current = try Self.readAuthorization(store)
        case .once(let memory): current = try Self.readAuthorization(memory)
        }
        guard current.status.isAuthorized, current.accuracy == .reducedAccuracy else { return (granted, nil) }
        guard interactive else {
            return (granted, "only approximate locations are allowed and there is no terminal to ask for precise ones: run 'geotrack auth grant' to allow them")
        }
        guard prompter.askFullAccuracy(purpose: purpose) else {
            return (granted, "precise locations refused: locations stay approximate")
        }
        return (.once(AuthorizationStore.inMemory(current.status, accuracy: .fullAccuracy)), nil)
    }

    /// `geotrack auth grant`: stores the user's permission (`approximate`: for approximate
    /// locations only), unless the administrator's policy forbids location access, which no
    /// user's decision lifts (77, naming the policy file).
    package static func grant(in store: AuthorizationStore, approximate: Bool = false) throws(CLIError) {
        let current: AuthorizationStatus?
        do {
            current = try store.read()
        } catch {
            // A file that holds no decision (or is a link) is what this grant replaces, as
            // `auth deny` and `auth reset` replace it: its error said to decide again, and a
            // grant is deciding again. A folder that cannot be trusted is still refused, by the write.
            guard case .authorizationStore = error else { throw CLIError(.cannotCreate, error.advisedMessage) }
            current = nil
        }
        if current == .restricted {
            throw CLIError(.noPermission, "location access is forbidden by the administrator's policy in \(store.policyPath); a grant cannot lift it")
        }
        try write(.authorizedAlways, accuracy: approximate ? .reducedAccuracy : .fullAccuracy, to: store)
    }

    /// Reads a store's whole decision, as a CLI error when it cannot: 73, as for the outbox's
    /// state, since the decision's folder or file cannot be used.
    package static func readAuthorization(_ store: AuthorizationStore) throws(CLIError) -> StoredAuthorization {
        do {
            return try store.readAuthorization()
        } catch {
            throw CLIError(.cannotCreate, error.advisedMessage)
        }
    }

    /// Reads a store, as a CLI error when it cannot (see ``readAuthorization(_:)``).
    package static func read(_ store: AuthorizationStore) throws(CLIError) -> AuthorizationStatus {
        do {
            return try store.read()
        } catch {
            throw CLIError(.cannotCreate, error.advisedMessage)
        }
    }

    /// Writes a store, as a CLI error when it cannot.
    package static func write(_ status: AuthorizationStatus, accuracy: AccuracyAuthorization = .fullAccuracy,
                              to store: AuthorizationStore) throws(CLIError) {
        do {
            try store.write(status, accuracy: accuracy)
        } catch {
            throw CLIError(.cannotCreate, error.advisedMessage)
        }
    }
}
