import CGPS
import Foundation
import Testing

/// The connection to gpsd is given up when the path to its machine dies without a FIN or RST
/// (Wi-Fi or LTE gone): TCP keepalive, set on the socket geotrack_connect makes.
///
/// The kernel's probing itself needs a path that drops packets, which a test cannot make on
/// loopback without root and a firewall; what is checked is that every socket to gpsd asks
/// for it, with the documented timings.
@Suite struct KeepaliveTests {
    @Test("geotrack_connect's socket has TCP keepalive: probes after 15 idle seconds, 5 s apart, given up after 3 unanswered")
    func socketAsksForKeepalive() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound && listen(listener, 1) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        var wake: [Int32] = [0, 0]
        try #require(pipe(&wake) == 0)
        defer { close(wake[0]); close(wake[1]) }
        var fd: Int32 = -1
        #expect(geotrack_connect("127.0.0.1", String(port), wake[0], &fd) == 0)
        try #require(fd >= 0)
        defer { geotrack_close_socket(fd) }
        func option(_ level: Int32, _ name: Int32) -> Int32 {
            var value: Int32 = -1
            var size = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, level, name, &value, &size) == 0 ? value : -1
        }
        #expect(option(SOL_SOCKET, SO_KEEPALIVE) == 1)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPIDLE) == GEOTRACK_KEEPALIVE_IDLE && GEOTRACK_KEEPALIVE_IDLE == 15)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPINTVL) == GEOTRACK_KEEPALIVE_INTERVAL && GEOTRACK_KEEPALIVE_INTERVAL == 5)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPCNT) == GEOTRACK_KEEPALIVE_COUNT && GEOTRACK_KEEPALIVE_COUNT == 3)
    }
}
