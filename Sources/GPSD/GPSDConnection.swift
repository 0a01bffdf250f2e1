import CGPS
import GPSReports
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open libgps connection to gpsd.
///
/// libgps keeps pointers into its `gps_data_t`, so the struct lives at one
/// heap address for the connection's whole life. Every call blocks, so a
/// connection is used only from its reader thread; the one exception is
/// ``GPSDInterrupter``, which may shut the socket down from elsewhere.
///
/// Call ``close()`` exactly once; a connection dropped while open is a bug
/// (debug builds trap, like swift-nio's `NIOFileHandle`).
final class GPSDConnection {
    /// Room for one gpsd JSON line; gpsd's longest (a SKY with many satellites) fits.
    private static let messageCapacity = 16_384

    private let data: UnsafeMutablePointer<gps_data_t>
    private let message: UnsafeMutablePointer<CChar>
    private(set) var isOpen: Bool
    private let host: String
    private let port: Int
    private let logger: Logger

    /// Connects to gpsd (blocking: name lookup and TCP connect).
    init(host: String, port: Int, logger: Logger) throws(SourceError) {
        self.host = host
        self.port = port
        self.logger = logger
        data = .allocate(capacity: 1)
        message = .allocate(capacity: Self.messageCapacity)
        message.initialize(repeating: 0, count: Self.messageCapacity)
        let code = geotrack_open(host, String(port), data)
        guard code == 0 else {
            isOpen = false
            throw Self.openError(code: code, host: host, port: port)
        }
        isOpen = true
    }

    deinit {
        if isOpen {
            assertionFailure("leaked open GPSDConnection to \(host):\(port). Call close() when done.")
            _ = geotrack_close(data)
        }
        message.deallocate()
        data.deallocate()
    }

    /// The socket, for polling and for ``GPSDInterrupter``.
    var fileDescriptor: Int32 { geotrack_fd(data) }

    /// Asks gpsd to stream JSON reports from `device`, or from every device when `nil`.
    func watch(device: String?) throws(SourceError) {
        // libgps pastes the device into its ?WATCH JSON unescaped: a quote or a brace would
        // smuggle a second command to gpsd.
        if let device, !GPSDConfiguration.isValidDevice(device) {
            throw SourceError(.protocolError, message: GPSDConfiguration.invalidDeviceMessage(device))
        }
        let status: Int32 = if let device {
            device.withCString { geotrack_watch(data, $0) }
        } else {
            geotrack_watch(data, nil)
        }
        if status != 0 { throw writeError() }
    }

    /// Blocks until a message may be read: one is buffered, or the socket has
    /// something to say (data, end of stream, error, or a shutdown from
    /// ``GPSDInterrupter``). Sleeps in poll(2): nothing runs while gpsd is quiet.
    ///
    /// After an incomplete read libgps's buffer holds part of a line, which
    /// `gps_waiting` counts as ready; then only new bytes on the socket help.
    func waitForInput(afterIncompleteRead: Bool) throws(SourceError) {
        if !afterIncompleteRead, geotrack_buffered(data) { return }
        if geotrack_wait_readable(data) < 0 {
            throw SourceError(.io, message: "waiting for gpsd at \(host):\(port) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// What one read produced.
    enum ReadResult {
        /// No complete line yet.
        case incomplete
        /// One message; `nil` when it is of a kind GeoTrack does not report.
        case message(Report?)
    }

    /// Reads at most one gpsd message.
    func read() throws(SourceError) -> ReadResult {
        var raw = geotrack_report()
        let status = geotrack_read(data, message, Int32(Self.messageCapacity), &raw)
        if status < 0 {
            let code = errno
            if code == 0 || code == ECONNRESET || code == EPIPE || code == ESHUTDOWN {
                throw SourceError.connectionClosed(host: host, port: port)
            }
            throw SourceError(.io, message: "reading from gpsd at \(host):\(port) failed: \(String(cString: strerror(code)))")
        }
        if status == 0 || raw.kind == GEOTRACK_KIND_NONE { return .incomplete }
        if raw.kind == GEOTRACK_KIND_ERROR {
            logger.warning("gpsd reported an error", metadata: ["message": "\(String(cString: geotrack_error_message(data)))"])
            return .message(nil)
        }
        return .message(Self.makeReport(from: raw, data: data))
    }

    /// Closes the socket and releases libgps's buffers. Safe to call twice.
    func close() {
        guard isOpen else { return }
        isOpen = false
        _ = geotrack_close(data)
    }

    private func writeError() -> SourceError {
        let code = errno
        if code == EPIPE || code == ECONNRESET || code == 0 {
            return .connectionClosed(host: host, port: port)
        }
        return SourceError(.io, message: "writing to gpsd at \(host):\(port) failed: \(String(cString: strerror(code)))")
    }

    /// Maps libgps's open failure (a netlib code or an errno) to a typed error.
    static func openError(code: Int32, host: String, port: Int) -> SourceError {
        if geotrack_open_error_is_refused(code) { return .connectionRefused(host: host, port: port) }
        if geotrack_open_error_is_host(code) { return .hostNotFound(host: host, port: port) }
        if code == ECONNREFUSED { return .connectionRefused(host: host, port: port) }
        let reason = code < 0 ? String(cString: geotrack_errstr(code)) : String(cString: strerror(code))
        return SourceError(.io, message: "cannot connect to gpsd at \(host):\(port): \(reason)")
    }
}
