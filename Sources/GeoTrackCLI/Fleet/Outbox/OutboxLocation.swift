import FoundationEssentials
import LocationKit
import Outbox
import SystemPackage

/// Where the outbox lives: `$XDG_STATE_HOME/geotrack/outbox.sqlite`.
package enum OutboxLocation {
    /// The outbox's path.
    package static func path(environment: [String: String]) -> String {
        AuthorizationStore.defaultDirectory(environment: environment) + "/outbox.sqlite"
    }

    /// Opens the outbox, making its folder (readable by its owner only) when missing.
    package static func open(environment: [String: String]) throws(CLIError) -> Outbox {
        let path = path(environment: environment)
        let folder = FilePath(path).removingLastComponent().string
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError(.cannotCreate, "cannot create \(folder) for the outbox; check XDG_STATE_HOME and its permissions")
        }
        // Where others can write, the outbox could be swapped or read: refused (fail closed).
        if let problem = StateDirectory.problem(folder) {
            throw CLIError(.cannotCreate, "refusing the outbox in \(folder): \(problem)")
        }
        do {
            return try Outbox(path: path)
        } catch {
            throw CLIError(error.code == .libraryMissing ? .libraryMissing : .cannotCreate, error.message)
        }
    }
}
