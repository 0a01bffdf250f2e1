import SystemPackage

/// A failure to report in one line on stderr, with the exit code that goes with it.
package struct CLIError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The exit status.
    package var status: ExitStatus
    /// What happened and what to do, in one line.
    package var message: String

    /// Creates an error.
    package init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    package var description: String { message }
}

extension CLIError {
    /// Standard output did not take what was written (a full disk, `> /dev/full`): exit 74,
    /// saying why. Every command ends with this one line, `replay --json`'s fast path included.
    package static func cannotWriteStandardOutput(_ error: Errno) -> CLIError {
        CLIError(.ioError, "cannot write to standard output: \(error.description)")
    }

    /// `replay --gpx` or `--svg` read `file` to its end and found no fix with a time, so no
    /// track was written to `track` and no picture to `picture`: exit 65. A fix without a time
    /// is not a position (gpsd's rule: a log of GGA alone has times of day but no date).
    package static func noTimedFix(_ file: String, track: String?, picture: String?) -> CLIError {
        let unwritten = switch (track, picture) {
        case let (track?, picture?): "no GPX track was written to \(track), and no SVG picture to \(picture)"
        case let (track?, nil): "no GPX track was written to \(track)"
        case let (nil, picture?): "no SVG picture was written to \(picture)"
        case (nil, nil): "nothing was written"
        }
        return CLIError(.dataError, "\(file == "-" ? "standard input" : file) holds no fix with a time, so \(unwritten); "
                        + "give an NMEA log with dates (RMC or ZDA), or a GPX track with <time>")
    }

    /// `stats` read `file` to its end and found no fix with a time to sum up: exit 65.
    package static func noTimedFix(_ file: String) -> CLIError {
        CLIError(.dataError, "\(file == "-" ? "standard input" : file) holds no fix with a time: stats sums a "
                 + "recorded track; give a GPX track with <time>, or an NMEA log with dates (RMC or ZDA)")
    }
}
