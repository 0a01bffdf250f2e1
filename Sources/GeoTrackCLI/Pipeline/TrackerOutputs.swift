import Foundation
import Logging

/// Builds a ``TrackerOutput`` from the command line's output options and the settings.
package enum TrackerOutputs {
    /// The outputs for a run; `live` flushes JSON per line (watch, or a paced replay).
    package static func make(options: OutputOptions, settings: Settings, live: Bool,
                             environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIError) -> TrackerOutput {
        let isTerminal = Terminal.isTerminal(STDOUT_FILENO)
        let mode: StatusDisplay.Mode = options.json ? .silent : (isTerminal ? .terminal : .lines)
        let render = RenderOptions(format: settings.format, units: settings.units,
                                   color: Terminal.colorAllowed(isTerminal: isTerminal, environment: environment))
        let gpx = try options.gpxPath.map { path throws(CLIError) in try GPXWriter(path: path, options: settings.gpx) }
        return TrackerOutput(display: StatusDisplay(mode: mode, options: render, terminalMode: TerminalMode()),
                             json: options.json ? LineWriter(flushEachLine: live) : nil,
                             encode: LocationSources.tpvJSON,
                             gpx: gpx,
                             stopAfter: options.stopAfter)
    }
}

extension Logger {
    /// geotrack's logger: warnings and errors on stderr, quiet otherwise so the status line stays clean.
    package static func geotrack() -> Logger {
        var logger = Logger(label: "geotrack") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = ProcessInfo.processInfo.environment["GEOTRACK_DEBUG"] == nil ? .error : .debug
        return logger
    }
}
