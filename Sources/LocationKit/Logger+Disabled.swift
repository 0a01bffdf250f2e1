import Logging

extension Logger {
    /// What a manager logs to when it was given no logger: nowhere.
    static let disabled = Logger(label: "LocationKit", factory: { _ in SwiftLogNoOpLogHandler() })
}
