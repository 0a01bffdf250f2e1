#if canImport(Glibc)
import Glibc
#endif

/// A new file beside the one it will replace, made with `mkstemp` (mode 0600, a name no one else
/// has): the first step of writing a file whole and renaming it into place, for the state files
/// (`StateFile`) and the command's outputs alike.
package enum TemporaryFile {
    /// Creates `directory/PREFIX.XXXXXX` (an empty `directory` is the current one) and returns
    /// its open descriptor and path; `nil` when it cannot, with `errno` set by `mkstemp`.
    package static func create(in directory: String, prefix: String) -> (descriptor: Int32, path: String)? {
        var template = Array(((directory.isEmpty ? "." : directory) + "/" + prefix + ".XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return nil }
        return (descriptor, String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
