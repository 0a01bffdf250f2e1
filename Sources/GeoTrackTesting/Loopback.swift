import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Plain TCP on 127.0.0.1, for the harnesses and tests that talk to a server as its clients
/// would: blocking calls, made on a thread of the caller's own.
public enum Loopback {
    /// The address 127.0.0.1:`port`.
    public static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// The address [::1]:`port`.
    static func ipv6Address(port: Int) -> sockaddr_in6 {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = UInt16(port).bigEndian
        address.sin6_addr = in6addr_loopback
        return address
    }

    /// A blocking, close-on-exec TCP connection to 127.0.0.1:`port`, or nil when none is made.
    ///
    /// - Parameters:
    ///   - receiveTimeout: when given, a read that waits this many seconds without a byte fails.
    ///   - receiveBuffer: when given, the socket's receive buffer in bytes, set before connecting
    ///     so that the window the server sees is the small one.
    public static func connect(port: Int, receiveTimeout: Int? = nil, receiveBuffer: Int32? = nil) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let receiveTimeout {
            var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = address(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Whether a connection to [::1]:`port` succeeds (false on a machine without IPv6).
    public static func acceptsOnIPv6(port: Int) -> Bool {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = ipv6Address(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        return connected == 0
    }

    /// A TCP port that nothing uses right now on 127.0.0.1 nor on ::1, for a server under test.
    ///
    /// It is drawn at random from below the kernel's ephemeral range, where the kernel never
    /// puts the local end of an outgoing connection. A port from that range (what binding port
    /// 0 gives) could be taken by any connection a test beside this one makes before the server
    /// binds it: gpsd then failed to bind 127.0.0.1, listened on ::1 alone, and a test waited
    /// for it in vain. Only when the range leaves too little room below it is the port the
    /// kernel's own choice.
    ///
    /// A port is handed out once per process: two tests starting servers at the same moment
    /// never get the same one (the second server would fail to bind, and its harness, asking
    /// the port, would hear the first server).
    public static func freePort() throws -> Int {
        let lowest = 10_000
        let ephemeral = ephemeralPorts()
        var generator = SystemRandomNumberGenerator()
        if ephemeral.lowerBound - lowest >= 1_000 {
            for _ in 0..<200 {
                let port = Int.random(in: lowest..<ephemeral.lowerBound, using: &generator)
                if isUnused(port: port), handedOut.withLock({ $0.insert(port).inserted }) { return port }
            }
        }
        for _ in 0..<200 {
            let port = try kernelChosenPort()
            if handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
        throw HarnessError("no free loopback port found in 200 tries")
    }

    /// The ports ``freePort()`` has returned in this process.
    private static let handedOut = Mutex<Set<Int>>([])

    /// The kernel's range for the local ports of outgoing connections (ip_local_port_range).
    static func ephemeralPorts() -> ClosedRange<Int> {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let bounds = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return 32_768...60_999 }
        return bounds[0]...bounds[1]
    }

    /// Whether `port` can be bound on 127.0.0.1 and, where the machine has IPv6, on ::1: gpsd
    /// listens on both.
    static func isUnused(port: Int) -> Bool {
        var v4 = address(port: port)
        guard bindsAndReleases(family: AF_INET, &v4) else { return false }
        var v6 = ipv6Address(port: port)
        return bindsAndReleases(family: AF_INET6, &v6, absentIsFine: true)
    }

    /// Whether this machine has ::1 to bind (a container may have no IPv6 at all).
    static var hasIPv6Loopback: Bool {
        var address = ipv6Address(port: 0)
        return bindsAndReleases(family: AF_INET6, &address)
    }

    /// Binds a fresh socket of `family` to `address` and closes it: whether the bind succeeded
    /// (or, with `absentIsFine`, the machine has no such family or address).
    private static func bindsAndReleases<Address>(family: Int32, _ address: inout Address,
                                                  absentIsFine: Bool = false) -> Bool {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return absentIsFine && errno == EAFNOSUPPORT }
        defer { close(fd) }
        if family == AF_INET6 {
            var only: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        if bound == 0 { return true }
        return absentIsFine && errno == EADDRNOTAVAIL
    }

    /// A port the kernel picks by binding port 0 on 127.0.0.1.
    private static func kernelChosenPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw HarnessError("bind: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw HarnessError("getsockname: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
