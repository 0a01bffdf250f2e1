import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the harness asks of the loopback network and of gpsd: blocking calls, made on the
/// harness's own threads (or by a test that wants them).
extension GPSFake {
    /// A TCP port on the loopback that nothing uses right now: ``Loopback/freePort()``.
    public static func freePort() throws -> Int {
        try Loopback.freePort()
    }

    /// Whether gpsd on the loopback `port` lists at least one receiver, asked with `?DEVICES;`,
    /// which does not make gpsd open it (only a watch does).
    public static func listsDevice(port: Int) -> Bool {
        devices(port: port).map { !$0.isEmpty } ?? false
    }

    /// Whether gpsd on the loopback `port` has a receiver open: its DEVICES line gives it an
    /// `activated` time. gpsd (run by gpsfake without `-n`) opens it only once a client watches.
    static func hasOpenDevice(port: Int) -> Bool {
        devices(port: port)?.contains { $0["activated"] is String } ?? false
    }

    /// The receivers gpsd on the loopback `port` lists in its answer to `?DEVICES;` (each a DEVICE
    /// object with a `path`), or nil when it does not answer within a second.
    static func devices(port: Int) -> [[String: Any]]? {
        guard let fd = Loopback.connect(port: port, receiveTimeout: 1) else { return nil }
        defer { close(fd) }
        let request = Array("?DEVICES;\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
        // gpsd answers with its VERSION line, then DEVICES; read until the DEVICES line is complete.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 65_536 {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
            for line in received.split(separator: UInt8(ascii: "\n")) where line.last == UInt8(ascii: "\r") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                      object["class"] as? String == "DEVICES" else { continue }
                return (object["devices"] as? [[String: Any]] ?? []).filter { $0["path"] is String }
            }
        }
        return nil
    }

    /// Whether a connection to the loopback `port` succeeds.
    public static func accepts(port: Int) -> Bool {
        guard let fd = Loopback.connect(port: port) else { return false }
        close(fd)
        return true
    }
}
