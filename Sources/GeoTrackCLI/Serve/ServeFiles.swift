#if canImport(Glibc)
import Glibc
#endif

/// Reads the small files the page serves (Leaflet's), whole, when the server starts.
enum ServeFiles {
    /// The most a served file may be: Leaflet's script is a fraction of it.
    static let maximumBytes = 4 << 20

    /// The file's bytes, or nil when it cannot be read (missing, not a regular file, too large).
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= maximumBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }
}
