import Foundation

/// A fresh directory under the system's temporary directory, removed when this object goes away.
///
/// Use it for an ``LocationKit/AuthorizationStore`` in tests, so no test touches the real
/// `~/.local/state/geotrack`.
public final class TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates the directory.
    public init() throws {
        var template = Array((NSTemporaryDirectory() + "/geotrack-test-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
