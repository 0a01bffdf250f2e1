import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The process's state, the way UIApplication reports an app's: active, in the background
/// (stopped with Ctrl-Z), back in the foreground, or terminating.
package enum LifecycleState: Sendable, Equatable, CustomStringConvertible {
    /// Running normally.
    case active
    /// About to stop (SIGTSTP): the terminal is handed back to the shell.
    case background
    /// Continued (SIGCONT): the terminal is ours again.
    case foreground
    /// Asked to end (SIGTERM, SIGINT, SIGHUP): a graceful shutdown starts.
    case terminating(signal: Int32)

    /// The state a signal leads to, or nil for a signal the lifecycle does not watch.
    package init?(signal: Int32) {
        switch signal {
        case SIGTSTP: self = .background
        case SIGCONT: self = .foreground
        case SIGTERM, SIGINT, SIGHUP: self = .terminating(signal: signal)
        default: return nil
        }
    }

    /// The signals the lifecycle watches.
    package static let signals: [Int32] = [SIGTSTP, SIGCONT, SIGTERM, SIGINT, SIGHUP]

    package var description: String {
        switch self {
        case .active: "active"
        case .background: "background"
        case .foreground: "foreground"
        case .terminating(let signal): "terminating (\(Self.name(of: signal)))"
        }
    }

    /// SIGTERM and friends by name.
    package static func name(of signal: Int32) -> String {
        switch signal {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGTSTP: "SIGTSTP"
        case SIGCONT: "SIGCONT"
        default: "signal \(signal)"
        }
    }
}
