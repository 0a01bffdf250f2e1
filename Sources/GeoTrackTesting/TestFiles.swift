import Foundation

// Small helpers the decoder suites share: files to replay, and where two outputs differ.

/// Writes `bytes` to a fresh file under the system's temporary directory and returns its path.
public func temporaryFile(_ bytes: [UInt8], suffix: String = ".nmea") throws -> String {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("geotrack-test-\(UUID().uuidString)\(suffix)")
    try Data(bytes).write(to: url)
    return url.path
}

/// Writes `text` to a fresh file under the system's temporary directory and returns its path.
public func temporaryFile(_ text: String, suffix: String = ".nmea") throws -> String {
    try temporaryFile(Array(text.utf8), suffix: suffix)
}

/// Where two outputs (bytes, or reports as text) first differ, "none" when they do not: an
/// expectation that fails says this rather than printing megabytes.
public func difference<Element: Equatable>(_ a: [Element], _ b: [Element]) -> String {
    let common = min(a.count, b.count)
    guard let index = (0..<common).first(where: { a[$0] != b[$0] }) ?? (a.count == b.count ? nil : common) else {
        return "none"
    }
    return "at element \(index) of \(a.count) and \(b.count)"
}
