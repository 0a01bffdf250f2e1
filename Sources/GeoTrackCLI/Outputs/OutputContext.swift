#if canImport(Glibc)
import Glibc
#endif

/// Everything an output may be made from.
package struct OutputContext {
    /// The command line's output options.
    package var options: OutputOptions
    /// The settings from the configuration (units, format, GPX filters, regions).
    package var settings: Settings
    /// Whether the run is live (watch, or a paced replay): JSON is flushed per line.
    package var live: Bool
    /// How the source is named (a file name, or gpsd's address).
    package var sourceName: String
    /// The file a replay reads, which no output may write over.
    package var input: String?
    /// Whether a progress bar may be shown (an unpaced replay).
    package var showsProgress: Bool
    /// Where JSON lines and the status line go.
    package var descriptor: Int32
    /// The process environment.
    package var environment: [String: String]

    /// Whether the replayed input is a stream that may be fed as a receiver sends (standard
    /// input or a named pipe that is no regular file: `gpspipe -r | geotrack replay -`), whose
    /// lines should go out as they come rather than in blocks.
    package var inputIsStream: Bool {
        guard let input else { return false }
        var info = stat()
        let found = input == "-" ? fstat(STDIN_FILENO, &info) : stat(input, &info)
        return found == 0 && (info.st_mode & S_IFMT) != S_IFREG
    }
}
