import Logging

extension Logger {
    /// What a client logs to when it was given no logger: nowhere.
    static let disabled = Logger(label: "GPSD", factory: { _ in SwiftLogNoOpLogHandler() })
}
