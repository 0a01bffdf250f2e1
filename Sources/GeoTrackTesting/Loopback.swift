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
}
