import Foundation

/// Decides, before anything is shown, whether `watch` may go on: asks at a terminal the first
/// time, never asks without one.
package struct AuthorizationGate: Sendable {
    let store: any AuthorizationStoring
    let interactive: Bool
    let prompter: TerminalPrompter

    /// A gate over `store`; interactive when stdin and stdout are both terminals.
    package init(store: any AuthorizationStoring,
                 interactive: Bool = Terminal.isTerminal(STDIN_FILENO) && Terminal.isTerminal(STDOUT_FILENO),
                 prompter: TerminalPrompter = TerminalPrompter()) {
        self.store = store
        self.interactive = interactive
        self.prompter = prompter
    }

    /// The decision that lets location through, or the error that ends the run.
    package func requireAccess() throws(CLIError) -> AuthorizationChoice {
        var choice = try store.read()
        if choice == .notDetermined {
            guard interactive else {
                throw CLIError(.authorizationRequired,
                               "location access has not been granted, and there is no terminal to ask on: run 'geotrack auth grant' first")
            }
            choice = try prompter.ask()
            if choice == .always || choice == .denied {
                try store.write(choice)
            }
        }
        guard choice.allowsLocation else {
            throw CLIError(.noPermission, "location access denied: run 'geotrack auth grant' to allow it")
        }
        return choice
    }
}
