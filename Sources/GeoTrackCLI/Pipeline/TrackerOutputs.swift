import FoundationEssentials
import Logging
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Builds a ``TrackerOutput`` from the command line's output options and the settings.
package enum TrackerOutputs {
    /// The outputs for a run; `live` flushes JSON per line (watch, or a paced replay).
    /// - Parameters:
    ///   - sourceName: how the status line names the source.
    ///   - input: the file a replay reads, which the GPX track may never overwrite.
    ///   - progress: whether to show a progress bar (an unpaced replay): with `--gpx` at a
    ///     terminal it counts the input's fixes first, but only for a regular file, which can be
    ///     read twice (a pipe cannot: counting would consume it).
    ///   - descriptor: where JSON lines and the status line go.
    package static func make(options: OutputOptions, settings: Settings, live: Bool, sourceName: String,
                             startingMessage: String? = nil,
                             input path: String? = nil, progress showsProgress: Bool = false,
                             descriptor: Int32 = STDOUT_FILENO,
                             environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIError) -> TrackerOutput {
        let isTerminal = Terminal.isTerminal(descriptor)
        // With JSON on stdout, a live run tells of its state changes on stderr: a pipeline
        // reading the JSON is not disturbed, and whoever runs it still learns that gpsd is down.
        let mode: StatusDisplay.Mode = options.json ? (live ? .changes : .silent) : (isTerminal ? .terminal : .lines)
        let displayDescriptor = mode == .changes ? STDERR_FILENO : descriptor
        let render = RenderOptions(format: settings.format, units: settings.units,
                                   color: Terminal.colorAllowed(isTerminal: Terminal.isTerminal(displayDescriptor),
                                                                environment: environment),
                                   sourceName: sourceName, startingMessage: startingMessage)
        let gpx = try options.gpxPath.map { gpxPath throws(CLIError) in
            try GPXWriter(path: gpxPath, options: settings.gpx, replacing: options.overwrite, input: path)
        }
        let picture = try options.svgPath.map { svgPath throws(CLIError) in
            try PictureOutput(path: svgPath, replacing: options.overwrite, input: path, units: settings.units,
                              title: FilePath(sourceName).lastComponent?.string ?? sourceName, regions: settings.regions)
        }
        let publisher = try PublishOutput.make(options: options.publish, environment: environment)
        var progress: ProgressBar?
        if showsProgress, gpx != nil, let path, Terminal.isTerminal(STDERR_FILENO), isRegularFile(path) {
            progress = ProgressBar(total: try FastReplay.countFixes(path))
        }
        return TrackerOutput(display: StatusDisplay(mode: mode, options: render, descriptor: displayDescriptor,
                                                    width: { Terminal.columns(descriptor) },
                                                    terminalMode: isTerminal ? TerminalMode() : nil),
                             json: options.json ? LineWriter(descriptor: descriptor, flushEachLine: live) : nil,
                             includesSky: options.sky,
                             gpx: gpx,
                             progress: progress,
                             stopAfter: options.stopAfter,
                             statistics: options.stats ? StatisticsOutput(descriptor: STDERR_FILENO, json: options.json,
                                                                          units: settings.units, format: settings.format) : nil,
                             picture: picture,
                             publisher: publisher)
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return path != "-" && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
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
