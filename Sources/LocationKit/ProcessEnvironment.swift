#if canImport(Glibc)
import Glibc
#endif

/// Named variables of this process's environment, read one by one.
///
/// `ProcessInfo.processInfo.environment` copies the whole environment into a dictionary, and
/// its first use initialises `ProcessInfo`: together a tenth of `geotrack auth status`'s time,
/// for the two variables a store needs.
@usableFromInline
package enum ProcessEnvironment {
    /// The variables among `names` that are set, by name.
    package static func values(of names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    /// What ``AuthorizationStore/defaultDirectory(environment:)`` reads: `XDG_STATE_HOME` and `HOME`.
    @usableFromInline
    package static var stateDirectoryVariables: [String: String] {
        values(of: ["XDG_STATE_HOME", "HOME"])
    }
}
