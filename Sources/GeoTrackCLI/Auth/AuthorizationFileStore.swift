import Foundation

/// Stores the authorization decision in `$XDG_STATE_HOME/geotrack/authorization`
/// (`~/.local/state/geotrack/authorization`): one word, `always` or `denied`.
package struct AuthorizationFileStore: AuthorizationStoring {
    /// The file.
    package let path: String

    /// The store for an environment (XDG_STATE_HOME, else HOME).
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        }
        path = base + "/geotrack/authorization"
    }

    package var location: String { path }

    package func read() throws(CLIError) -> AuthorizationChoice {
        guard FileManager.default.fileExists(atPath: path) else { return .notDetermined }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CLIError(.failure, "cannot read \(path): \(error.localizedDescription). Run 'geotrack auth reset'.")
        }
        switch text.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "always": return .always
        case "denied": return .denied
        default: return .notDetermined
        }
    }

    package func write(_ choice: AuthorizationChoice) throws(CLIError) {
        guard choice == .always || choice == .denied else { return try reset() }
        do {
            let directory = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try (choice.rawValue + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw CLIError(.cannotCreate, "cannot write \(path): \(error.localizedDescription)")
        }
    }

    package func reset() throws(CLIError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw CLIError(.ioError, "cannot remove \(path): \(error.localizedDescription)")
        }
    }
}
