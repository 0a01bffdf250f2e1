#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GPSReports
import NMEA

/// `geotrack replay FILE --json`: every fix of an NMEA log or GPX track as gpsd TPV JSON lines, as fast as possible.
/// Writes `text` to stderr with one `write(2)`.
func standardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        guard let base = bytes.baseAddress else { return }
        _ = write(2, base, bytes.count)
    }
}

enum ReplayCommand {
    /// Exit codes: 0 done, 64 bad usage, 66 unreadable input, 74 read error, 75 write error.
    static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        var countOnly = false
        var showStatistics = false
        for argument in arguments {
            switch argument {
            case "--json": break
            case "--count-only", "--no-output": countOnly = true
            case "--stats": showStatistics = true
            case "-": path = argument
            default:
                if argument.hasPrefix("-") || path != nil {
                    standardError("geotrack replay: unknown argument '\(argument)'. Usage: geotrack replay FILE|- [--json] [--count-only] [--stats]\n")
                    return 64
                }
                path = argument
            }
        }
        guard let path else {
            standardError("geotrack replay: no file given. Usage: geotrack replay FILE|- [--json] [--count-only] [--stats]\n")
            return 64
        }
        let reader: ReplayReader
        do {
            reader = try ReplayReader(path: path)
        } catch {
            standardError("geotrack: \(error.message)\n")
            return 66
        }
        var fixes = 0
        do {
            if countOnly {
                fixes = try reader.forEachFixBatch { _, _ in true }
            } else {
                let result = try TPVJSONPipeline.run(reader) { bytes in writeAll(bytes) }
                fixes = result.fixes
                if !result.written {
                    standardError("geotrack: cannot write output: \(String(cString: strerror(errno)))\n")
                    return 75
                }
            }
        } catch {
            standardError("geotrack: \(error.message)\n")
            return 74
        }
        if showStatistics || countOnly {
            standardError("\(fixes) fixes; \(reader.statistics)\n")
        }
        return 0
    }

    /// Writes all of `bytes` to stdout; `false` when the output is gone.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = write(1, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
