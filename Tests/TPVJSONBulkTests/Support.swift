import Foundation

/// The package's root folder.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The path of one of the logs of Tests/NMEATests/Logs: the decoder's own test logs, read
/// from the source tree rather than copied a second time.
func logPath(_ name: String) throws -> String {
    let path = packageRoot.appendingPathComponent("Tests/NMEATests/Logs/\(name)").path
    guard FileManager.default.fileExists(atPath: path) else { throw CocoaError(.fileNoSuchFile) }
    return path
}

/// Writes `bytes` to a fresh temporary file and returns its path.
func temporaryFile(_ bytes: [UInt8], suffix: String = ".nmea") throws -> String {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("tpv-bulk-test-\(UUID().uuidString)\(suffix)")
    try Data(bytes).write(to: url)
    return url.path
}

func temporaryFile(_ text: String, suffix: String = ".nmea") throws -> String {
    try temporaryFile(Array(text.utf8), suffix: suffix)
}

/// Adds `*hh` to a sentence body such as `$GPRMC,...`.
func checksummed(_ body: String) -> String {
    var sum: UInt8 = 0
    for byte in body.utf8.dropFirst() { sum ^= byte }
    let hex = String(sum, radix: 16, uppercase: true)
    return body + "*" + (hex.count == 1 ? "0" + hex : hex)
}

/// Where two outputs first differ, "none" when they do not: an expectation that fails says
/// this rather than printing megabytes.
func difference<Element: Equatable>(_ a: [Element], _ b: [Element]) -> String {
    let common = min(a.count, b.count)
    guard let index = (0..<common).first(where: { a[$0] != b[$0] }) ?? (a.count == b.count ? nil : common) else {
        return "none"
    }
    return "at element \(index) of \(a.count) and \(b.count)"
}
