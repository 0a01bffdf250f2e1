import CGPS
import GPSReports
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to gpsd: a socket GeoTrack owns, its lines, and libgps to parse them.
///
/// Every call blocks the calling thread, so a connection is used only from its reader thread.
/// Every wait (connecting, sending, waiting for a line) also watches the
/// ``GPSDInterrupter``, so cancelling the reader's task ends any of them at once.
///
/// Call ``close()`` exactly once; a connection dropped while open is a bug (debug builds
/// trap, like swift-nio's `NIOFileHandle`).
final class GPSDConnection {
    /// The longest line kept: ten times gpsd's longest (a SKY with every channel in use).
    static let maximumLineLength = 65_536

    private let descriptor: Int32
    private var lines = GPSDLineBuffer(maximumLineLength: maximumLineLength)
    private var decoder: GPSDMessageDecoder
    private let interrupter: GPSDInterrupter
    private(set) var isOpen: Bool
    private let host: String
    private let port: Int
    private let logger: Logger
    /// Rejected lines so far; the first is a warning, the rest are counted at debug level.
    private var rejected = 0
    private var oversizedReported = 0

    /// Connects to gpsd (blocking: name lookup, then a connect the interrupter can end).
    init(host: String, port: Int, interrupter: GPSDInterrupter, logger: Logger) throws(SourceError) {
        self.host = host
        self.port = port
        self.logger = logger
        self.interrupter = interrupter
        do {
            decoder = try GPSDMessageDecoder(library: LibGPS.shared.get())
        } catch {
            isOpen = false
            throw error
        }
        var fd: Int32 = -1
        let code = geotrack_connect(host, String(port), interrupter.wakeDescriptor, &fd)
        guard code == 0 else {
            isOpen = false
            throw Self.connectError(code: code, host: host, port: port)
        }
        descriptor = fd
        isOpen = true
    }

    deinit {
        if isOpen {
            assertionFailure("leaked open GPSDConnection to \(HostAndPort.text(host, port)). Call close() when done.")
            geotrack_close_socket(descriptor)
        }
    }

    /// Asks gpsd to stream JSON reports from `device`, or from every device when `nil`.
    func watch(device: String?) throws(SourceError) {
        // The device goes into a JSON string: anything that could end it is refused first.
        if let device, !GPSDConfiguration.isValidDevice(device) {
            throw SourceError(.protocolError, message: GPSDConfiguration.invalidDeviceMessage(device))
        }
        let command = if let device {
            "?WATCH={\"enable\":true,\"json\":true,\"device\":\"\(device)\"};\n"
        } else {
            "?WATCH={\"enable\":true,\"json\":true};\n"
        }
        let code = command.withCString { geotrack_send_all(descriptor, interrupter.wakeDescriptor, $0, strlen($0)) }
        switch code {
        case 0: return
        case GEOTRACK_CONNECT_WOKEN: throw Self.interrupted
        case EPIPE, ECONNRESET: throw SourceError.connectionClosed(host: host, port: port)
        default:
            throw SourceError(.io, message: "writing to gpsd at \(HostAndPort.text(host, port)) failed: \(String(cString: strerror(code)))")
        }
    }

    /// Blocks until the next message GeoTrack reports, and returns it. Lines gpsd would never
    /// send are logged and skipped. Sleeps in poll(2): nothing runs while gpsd is quiet.
    func nextReport() throws(SourceError) -> Report {
        while true {
            while let line = lines.nextLine() {
                switch decoder.decode(line) {
                case .report(let report):
                    return report
                case .ignored:
                    continue
                case .gpsdError(let message):
                    logger.warning("gpsd reported an error", metadata: ["message": "\(message)"])
                    // gpsd refuses to watch a receiver it does not have ("No such device as
                    // /dev/ttyUSB9") and then sends nothing, not even its DEVICES: to this
                    // watcher it lists none of the receivers asked for. It keeps the watch, and
                    // streams the receiver once it is added (gpsdctl add), which proves it present.
                    if message.hasPrefix("No such device") { return .devices([]) }
                case .rejected(let reason):
                    rejected += 1
                    let level: Logger.Level = rejected == 1 ? .warning : .debug
                    logger.log(level: level, "ignored a line from gpsd", metadata: [
                        "host": "\(HostAndPort.text(host, port))", "reason": "\(reason)", "rejected": "\(rejected)"])
                }
            }
            if lines.oversizedLines > oversizedReported {
                oversizedReported = lines.oversizedLines
                logger.warning("ignored a line from gpsd longer than \(Self.maximumLineLength) bytes",
                               metadata: ["host": "\(HostAndPort.text(host, port))", "count": "\(oversizedReported)"])
            }
            try fill()
        }
    }

    /// Waits for bytes and reads them into the line buffer.
    private func fill() throws(SourceError) {
        while true {
            let count = lines.receive(from: descriptor)
            if count > 0 { return }
            if count == 0 { throw SourceError.connectionClosed(host: host, port: port) }
            let code = errno
            switch code {
            case EAGAIN, EWOULDBLOCK:
                switch geotrack_wait(descriptor, Int16(POLLIN), interrupter.wakeDescriptor) {
                case 0: throw Self.interrupted
                case 1: continue
                default:
                    throw SourceError(.io, message:
                        "waiting for gpsd at \(HostAndPort.text(host, port)) failed: \(String(cString: strerror(errno)))")
                }
            case ECONNRESET, EPIPE, ESHUTDOWN:
                throw SourceError.connectionClosed(host: host, port: port)
            case ETIMEDOUT, EHOSTUNREACH, ENETUNREACH:
                // TCP keepalive's probes went unanswered (geotrack_connect turns it on): the
                // path to gpsd's machine is gone, though no end of the connection ever came.
                throw SourceError(.connectionClosed, message: "lost gpsd at \(HostAndPort.text(host, port)): its machine stopped answering "
                                  + "(\(String(cString: strerror(code))))", reason: "its machine stopped answering",
                                  address: HostAndPort.text(host, port))
            default:
                throw SourceError(.io, message: "reading from gpsd at \(HostAndPort.text(host, port)) failed: \(String(cString: strerror(code)))")
            }
        }
    }

    /// Closes the socket. Safe to call twice.
    func close() {
        guard isOpen else { return }
        isOpen = false
        geotrack_close_socket(descriptor)
    }

    /// What a wait returns when the interrupter rang; the reader reports it as cancelled.
    static let interrupted = SourceError(.io, message: "the connection to gpsd was interrupted")

    /// Maps a connect failure to a typed error.
    static func connectError(code: Int32, host: String, port: Int) -> SourceError {
        switch code {
        case GEOTRACK_CONNECT_NOHOST: return .hostNotFound(host: host, port: port)
        case GEOTRACK_CONNECT_WOKEN: return interrupted
        case ECONNREFUSED: return .connectionRefused(host: host, port: port)
        case ETIMEDOUT: return .timedOut(host: host, port: port)
        case EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, ENETDOWN:
            return .unreachable(host: host, port: port, reason: String(cString: strerror(code)))
        default:
            let reason = String(cString: strerror(code))
            return SourceError(.io, message: "cannot connect to gpsd at \(HostAndPort.text(host, port)): \(reason)",
                               reason: reason, address: HostAndPort.text(host, port))
        }
    }
}
