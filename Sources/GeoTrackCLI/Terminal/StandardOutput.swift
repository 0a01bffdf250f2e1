import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Whether standard output took everything written to it.
///
/// Output that cannot be written (a full disk, `> /dev/full`, a closed descriptor) is not
/// output delivered: every failed write to stdout, whoever made it (``Terminal/write(_:to:)``,
/// a ``LineWriter``, a `print` through stdio), is recorded here, and ``GeoTrack/main()`` then
/// ends the command with exit status 74 and one line saying why, instead of 0 with the output lost.
package enum StandardOutput {
    private static let firstFailure = Mutex<Errno?>(nil)

    /// Records a failed write to standard output; the first failure is the one reported.
    ///
    /// A reader that went away (EPIPE: `geotrack … | head -1`) is no failure: a pipeline expects
    /// the writer to stop quietly, as `replay --json` does.
    package static func record(_ error: Errno) {
        guard error != .brokenPipe else { return }
        firstFailure.withLock { first in
            if first == nil { first = error }
        }
    }

    /// The error to end with when a write to standard output failed, or nil.
    package static var failure: CLIError? {
        firstFailure.withLock { $0 }.map(CLIError.cannotWriteStandardOutput)
    }

    /// Writes `text` to standard output in one unbuffered write; a failure is recorded.
    ///
    /// Not `print`: stdio's buffer would hide a failure until exit, and `print` casts its
    /// argument to find how to write it, which scans every protocol conformance in the binary.
    package static func write(_ text: String) {
        Terminal.write(text, to: STDOUT_FILENO)
    }

    /// Writes `line` and a newline to standard output (see ``write(_:)``).
    package static func line(_ line: String) {
        write(line + "\n")
    }

    /// Flushes whatever stdio still holds for standard output, then throws the first failure
    /// recorded, if any. Called once, as the command ends.
    package static func finish() throws(CLIError) {
        // fflush(NULL) flushes every output stream, stdout among them: Swift 6 does not let a
        // program name C's `stdout` global, a shared mutable variable.
        if fflush(nil) != 0 { record(Errno(rawValue: errno)) }
        if let failure { throw failure }
    }
}
