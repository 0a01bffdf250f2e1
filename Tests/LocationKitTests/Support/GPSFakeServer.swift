import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd fed by `gpsfake -1 -q -P PORT -c 0.1 LOG` on a free loopback port.
///
/// A small copy of the GPSD tests' harness: gpsfake runs in its own process group with a
/// clean signal mask, so stopping the group also stops the gpsd it started.
final class GPSFakeServer {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let path = "/usr/bin/gpsfake"

    let port: Int
    private let pid: pid_t
    private var reaped = false

    /// Starts gpsfake and waits (up to 30 s of real time: it is an external process) until gpsd listens.
    init(log: String) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.path) else {
            throw Failure(description: "gpsfake is not installed at \(Self.path): sudo apt-get install gpsd-clients")
        }
        port = try Self.freePort()
        pid = try Self.spawn([Self.path, "-1", "-q", "-P", String(port), "-c", "0.1", log])
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !Self.accepts(port: port) {
            guard ContinuousClock.now < deadline, !exited else {
                stop()
                throw Failure(description: "gpsfake did not start gpsd on port \(port) within 30 s")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit {
        stop()
    }

    /// Stops gpsfake and its gpsd.
    func stop() {
        guard !reaped else { return }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        reaped = true
    }

    private var exited: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }

    private static func spawn(_ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test runner may block signals; the child must not inherit that mask.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            environment.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, &attributes, argv + [nil], environment + [nil])
        guard status == 0 else { throw Failure(description: "cannot start gpsfake: error \(status)") }
        return child
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard named else { throw Failure(description: "cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
