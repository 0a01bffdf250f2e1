#if canImport(Glibc)
import Glibc
#endif

/// The host names `serve` answers besides addresses and localhost (see WebServe's `HostCheck`):
/// this machine's own, as a phone on the same network would reach it.
enum ServeHosts {
    /// The machine's name as gethostname(2) gives it, its first label when that is a full
    /// name, and each with `.local` (mDNS, as Avahi announces it).
    static func machineNames() -> [String] {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard isName(name) else { return [] }
        let short = String(name.prefix { $0 != "." })
        return Array(Set([name, short, short + ".local"]))
    }

    /// Whether `text` is a host name `--allow-host` takes: labels of letters, digits, `-` and
    /// `_`, separated by dots, at most 253 characters.
    static func isName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        // A trailing dot (a fully qualified name) is allowed; no other empty label.
        let named = labels.last == "" ? labels.dropLast() : labels[...]
        return !named.isEmpty && named.allSatisfy { label in
            !label.isEmpty && label.count <= 63
                && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        }
    }
}
