// A minimal `geotrack watch` until the full CLI lands: one plain line per fix.
import Foundation
import GPSD
import GPSReports
import Logging

/// Exit codes, after sysexits.h.
enum ExitCode: Int32 {
    case usage = 64
    case unavailable = 69
}

func fail(_ message: String, _ code: ExitCode) -> Never {
    FileHandle.standardError.write(Data("geotrack: \(message)\n".utf8))
    exit(code.rawValue)
}

let usage = "usage: geotrack watch --gpsd HOST:PORT [--count N]"

/// Parses `watch --gpsd HOST:PORT [--count N]`.
func parseWatch(_ arguments: [String]) -> (host: String, port: Int, count: Int?) {
    guard arguments.first == "watch" else { fail(usage, .usage) }
    var host = "localhost", port = 2947
    var count: Int?
    var rest = arguments.dropFirst()
    while let option = rest.popFirst() {
        switch option {
        case "--gpsd":
            guard let value = rest.popFirst() else { fail("--gpsd needs HOST:PORT. \(usage)", .usage) }
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let first = parts.first, !first.isEmpty else {
                fail("'\(value)' is not HOST:PORT (e.g. localhost:2947)", .usage)
            }
            host = String(first)
            if parts.count == 2 {
                guard let number = Int(parts[1]), (1...65535).contains(number) else {
                    fail("'\(parts[1])' is not a port number between 1 and 65535", .usage)
                }
                port = number
            }
        case "--count":
            guard let value = rest.popFirst(), let number = Int(value), number > 0 else {
                fail("--count needs a positive number", .usage)
            }
            count = number
        default:
            fail("unknown option '\(option)'. \(usage)", .usage)
        }
    }
    return (host, port, count)
}

func line(for fix: Fix, coordinate: Coordinate) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let time = fix.time.map { formatter.string(from: $0) } ?? "-"
    var text = "\(time) \(fix.mode) " + String(format: "%.6f,%.6f", coordinate.latitude, coordinate.longitude)
    if let altitude = fix.altitudeMSL ?? fix.altitudeHAE {
        text += String(format: " alt %.1f m", altitude)
    }
    return text
}

let options = parseWatch(Array(CommandLine.arguments.dropFirst()))
var logger = Logger(label: "geotrack")
logger.logLevel = .warning
let client = GPSDClient(configuration: GPSDConfiguration(host: options.host, port: options.port), logger: logger)

var printed = 0
for await event in client.events() {
    switch event {
    case .report(.fix(let fix)):
        guard let coordinate = fix.coordinate else { continue }
        // Unbuffered, so a pipe sees each fix as it comes.
        FileHandle.standardOutput.write(Data((line(for: fix, coordinate: coordinate) + "\n").utf8))
        printed += 1
        if let count = options.count, printed >= count { exit(0) }
    case .state(.disconnected(let error)):
        FileHandle.standardError.write(Data("geotrack: \(error)\n".utf8))
    default:
        continue
    }
}
