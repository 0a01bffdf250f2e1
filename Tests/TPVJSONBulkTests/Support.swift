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
