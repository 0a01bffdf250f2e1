import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The gpsd whose programs (gpsd, gpsfake, gpspipe, gpsdecode) the tests run: the system's
/// (Debian's, in /usr), or the one installed under `GEOTRACK_TEST_GPSD_PREFIX` (make
/// test-gpsd-versions builds gpsd 3.25 and 3.27.5 into .build/gpsd/VERSION and sets it).
public struct GPSDInstallation: Sendable, Equatable {
    /// Where it is installed: its programs are in `prefix/bin` and `prefix/sbin`; nil for the
    /// system's, in /usr/bin and /usr/sbin.
    public let prefix: String?

    /// The system's gpsd.
    public static let system = GPSDInstallation(prefix: nil)

    /// The one the tests use: `GEOTRACK_TEST_GPSD_PREFIX` when set and not empty, else the system's.
    public static let current: GPSDInstallation = {
        guard let prefix = ProcessInfo.processInfo.environment["GEOTRACK_TEST_GPSD_PREFIX"], !prefix.isEmpty else {
            return .system
        }
        return GPSDInstallation(prefix: prefix)
    }()

    public init(prefix: String?) {
        self.prefix = prefix
    }

    /// The path of one of its programs (`gpsfake`, `gpspipe`, `gpsdecode`; `gpsd` is in sbin).
    public func path(of program: String) -> String {
        let folder = program == "gpsd" ? "sbin" : "bin"
        return "\(prefix ?? "/usr")/\(folder)/\(program)"
    }

    /// What its programs need in their environment: gpsfake's Python module, and the gpsd it
    /// starts (gpsfake runs the first gpsd on GPSD_HOME, else on PATH, which finds the
    /// system's). Empty for the system's.
    public var environment: [String: String] {
        guard let prefix else { return [:] }
        return ["PYTHONPATH": "\(prefix)/lib/python", "GPSD_HOME": "\(prefix)/sbin",
                "LD_LIBRARY_PATH": "\(prefix)/lib"]
    }

    /// How to start `program` with `arguments` and this installation's environment: through
    /// /usr/bin/env, which sets it and then runs the program in its own place (same process,
    /// so signals sent to it reach the program).
    public func command(_ program: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        let settings = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if settings.isEmpty { return (path(of: program), arguments) }
        return ("/usr/bin/env", settings + [path(of: program)] + arguments)
    }

    /// Why it cannot be used, or nil when its gpsd and gpsfake are installed: one line, saying
    /// how to install them.
    public var problem: String? {
        let fileManager = FileManager.default
        for program in ["gpsd", "gpsfake", "gpspipe"] where !fileManager.isExecutableFile(atPath: path(of: program)) {
            if let prefix {
                return "\(path(of: program)) is missing: GEOTRACK_TEST_GPSD_PREFIX=\(prefix) names no gpsd installation (make test-gpsd-versions builds them into .build/gpsd/VERSION; or scripts/build-gpsd.sh TARBALL \(prefix))"
            }
            return "\(program) is not installed at \(path(of: program)): make deps installs what the tests need (or sudo apt-get install gpsd gpsd-clients)"
        }
        return nil
    }
}

/// A real gpsd fed from a log by gpsfake, on a free loopback port.
///
/// `gpsfake -1 -q -P PORT -c CYCLE LOG`: the log is read once, one sentence per
/// cycle; when it ends gpsd reports the device gone and stays up, quiet. Use it to
/// test your own location code against a real gpsd (package gpsd-clients); the tests'
/// gpsd is ``GPSDInstallation/current``.
public final class GPSFake {
    /// Where the tests' gpsfake is: Debian's, or the one under `GEOTRACK_TEST_GPSD_PREFIX`.
    public static var path: String { GPSDInstallation.current.path(of: "gpsfake") }

    /// Whether gpsfake is installed.
    public static var isInstalled: Bool { GPSDInstallation.current.problem == nil }

    /// The loopback port gpsd listens on.
    public let port: Int
    private let process: ChildProcess

    /// Starts gpsfake on `port` (a free one when `nil`) and waits until gpsd accepts connections
    /// and lists the receiver.
    ///
    /// A free port is only free when it is chosen: a test running beside this one may take it
    /// (for its own gpsd, or as a connection's local port) before gpsd binds it. gpsd then fails,
    /// and gpsfake exits or never gets its receiver listed; with a port of its own choosing, the
    /// harness then tries another one, up to three times. A port the caller gave is never
    /// changed: gpsfake is started on it again, up to three times, since now and then a gpsd
    /// listens and never lists gpsfake's receiver (seen in a restart test, on its given port).
    public init(log: String, port: Int? = nil, cycle: String = "0.1",
                gpsd installation: GPSDInstallation = .current) async throws {
        if let problem = installation.problem {
            throw HarnessError(problem)
        }
        var attempt = 1
        while true {
            let chosen = try port ?? Self.freePort()
            do {
                process = try await Self.start(log: log, port: chosen, cycle: cycle, installation: installation)
                self.port = chosen
                return
            } catch let error as PortTaken where attempt < 3 {
                _ = error
                attempt += 1
            } catch let error as PortTaken {
                throw HarnessError(error.message)
            }
        }
    }

    /// gpsfake's gpsd never served on the port: it exited, or never listed the receiver.
    private struct PortTaken: Error {
        let message: String
    }

    private static func start(log: String, port: Int, cycle: String, installation: GPSDInstallation) async throws -> ChildProcess {
        let command = installation.command("gpsfake", ["-1", "-q", "-P", String(port), "-c", cycle, log])
        let process = try ChildProcess(path: command.executable, arguments: command.arguments)
        let listening = await waitUntil(timeout: .seconds(30)) { [process] in
            process.hasExited || Self.accepts(port: port)
        }
        if process.hasExited { throw PortTaken(message: "gpsfake exited before gpsd listened on port \(port)") }
        guard listening else {
            process.signalGroup(SIGKILL)
            throw HarnessError("gpsfake did not start gpsd on port \(port) within 30 s")
        }
        // gpsd listens before gpsfake has added its receiver. A client that watches in between
        // is told there are no devices, and gpsd 3.22 then never tells it of the one added
        // next: in CI a test saw "devices: []" and nothing else for 30 s.
        // gpsfake adds it well within a second; CI once saw a gpsd that never listed it.
        let listed = await waitUntil(timeout: .seconds(15)) { [process] in
            process.hasExited || Self.listsDevice(port: port)
        }
        if process.hasExited { throw PortTaken(message: "gpsfake exited before gpsd listed its receiver on port \(port)") }
        guard listed else {
            process.signalGroup(SIGKILL)
            _ = await process.waitForExit(timeout: .seconds(5))
            throw PortTaken(message: "gpsd on port \(port) listed no receiver from gpsfake within 15 s")
        }
        return process
    }

    /// Stops gpsfake and its gpsd (`SIGKILL` to simulate a crash) and waits until the port refuses connections.
    public func stop(signal: Int32 = SIGTERM) async throws {
        process.signalGroup(signal)
        // gpsfake's SIGTERM handler stops gpsd, but once its log is done and its
        // clients are gone it may carry on: then it is killed.
        if await !process.waitForExit(timeout: .seconds(2)) {
            process.signalGroup(SIGKILL)
            _ = await process.waitForExit(timeout: .seconds(10))
        }
        let closed = await waitUntil(timeout: .seconds(10)) { [port] in !Self.accepts(port: port) }
        guard closed else { throw HarnessError("gpsd still listens on port \(port) after gpsfake stopped") }
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = loopback(port: 0)
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

    /// Whether gpsd on the loopback `port` lists at least one receiver, asked with `?DEVICES;`,
    /// which does not make gpsd open it (only a watch does).
    public static func listsDevice(port: Int) -> Bool {
        guard let fd = connectLoopback(port: port) else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("?DEVICES;\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else { return false }
        // gpsd answers with its VERSION line, then DEVICES; read until the DEVICES line is complete.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 65_536 {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received.append(contentsOf: buffer[0..<count])
            let text = String(decoding: received, as: UTF8.self)
            guard let range = text.range(of: "\"class\":\"DEVICES\"") else { continue }
            let rest = text[range.upperBound...]
            // gpsd ends lines with CR LF, which Swift reads as one Character.
            guard let end = rest.firstIndex(where: \.isNewline) else { continue }
            return rest[..<end].contains("\"path\":")
        }
        return false
    }

    /// Whether a connection to the loopback `port` succeeds.
    public static func accepts(port: Int) -> Bool {
        guard let fd = connectLoopback(port: port) else { return false }
        close(fd)
        return true
    }

    /// A TCP connection to 127.0.0.1:`port`, or nil when none is made.
    static func connectLoopback(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// The address 127.0.0.1:`port`.
    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
