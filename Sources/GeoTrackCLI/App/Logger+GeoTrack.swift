import FoundationEssentials
import Logging

extension Logger {
    /// geotrack's logger: warnings and errors on stderr, quiet otherwise so the status line stays clean.
    package static func geotrack() -> Logger {
        var logger = Logger(label: "geotrack") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = ProcessInfo.processInfo.environment["GEOTRACK_DEBUG"] == nil ? .error : .debug
        return logger
    }
}
