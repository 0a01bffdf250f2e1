import Foundation
import GeoTrackTesting
import GPSReports
@testable import NMEA

/// Every report of a replay of `bytes`, and the statistics.
func replay(_ bytes: [UInt8], format: ReplayFormat? = nil) throws -> (reports: [Report], statistics: ReplayStatistics) {
    let path = try temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = try ReplayReader(path: path, format: format)
    var reports: [Report] = []
    while let report = try reader.next() { reports.append(report) }
    return (reports, reader.statistics)
}

func replay(_ text: String, format: ReplayFormat? = nil) throws -> (reports: [Report], statistics: ReplayStatistics) {
    try replay(Array(text.utf8), format: format)
}

/// The fixes among `reports`.
func fixes(_ reports: [Report]) -> [Fix] {
    reports.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
}

/// The fixes that are positions, without the device name (a temporary file's path).
func positions(_ reports: [Report]) -> [Fix] {
    fixes(reports).filter(\.hasPosition).map { fix in
        var fix = fix
        fix.device = nil
        return fix
    }
}

/// Lines with checksums, CR LF terminated.
func log(_ bodies: String...) -> String {
    bodies.map { SyntheticLog.checksummed($0) + "\r\n" }.joined()
}

/// The path of a log copied into Tests/NMEATests/Logs.
func logPath(_ name: String) throws -> String {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Logs") else {
        throw CocoaError(.fileNoSuchFile)
    }
    return url.path
}

/// Whether a line holds at least one complete, checksum-valid sentence, by an independent
/// reading of NMEA framing: `$` up to CR, LF or the next `$`, printable, `*hh` matching.
func containsValidSentence(_ line: [UInt8]) -> Bool {
    var i = 0
    while i < line.count {
        guard line[i] == UInt8(ascii: "$") else { i += 1; continue }
        var j = i + 1
        while j < line.count, line[j] != 0x0D, line[j] != 0x0A, line[j] != UInt8(ascii: "$") { j += 1 }
        let sentence = Array(line[i..<j])
        if sentence.count >= 4, sentence[sentence.count - 3] == UInt8(ascii: "*"),
           sentence.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }),
           let expected = UInt8(String(decoding: sentence.suffix(2), as: UTF8.self), radix: 16) {
            let sum = sentence[1..<(sentence.count - 3)].reduce(UInt8(0), ^)
            if sum == expected { return true }
        }
        i = j
    }
    return false
}
