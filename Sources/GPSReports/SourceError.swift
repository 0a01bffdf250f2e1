/// Why a location source failed, with a message a user can act on.
///
/// Compare errors by ``code``; ``description`` is the sentence to show a user.
public struct SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: Sendable, Hashable {
        /// Nothing listens at the address.
        case connectionRefused
        /// The host name does not resolve.
        case hostNotFound
        /// The peer closed the connection.
        case connectionClosed
        /// The peer did not answer in time: a connect that never completed, or a server that
        /// accepted and then said nothing.
        case timedOut
        /// gpsd answered, but no receiver is attached to it.
        case noReceiver
        /// The peer sent something that is not its protocol.
        case protocolError
        /// A read or write failed at the operating-system level.
        case io
        /// A file to replay could not be opened or read.
        case unreadableFile
    }

    /// The kind of failure.
    public var code: Code
    /// The full message for the user: what happened and what to do.
    public var message: String
    /// The cause in a few words ("connection refused"), for a line too narrow for ``message``;
    /// nil when the message has no shorter form.
    public var reason: String?
    /// Where the source was tried ("localhost:2947"), when that is worth showing beside ``reason``.
    public var address: String?
    /// The first thing to check, in a few words ("is gpsd running?").
    public var hint: String?
    /// A command that may help ("sudo systemctl start gpsd").
    public var remedy: String?

    /// Creates an error with an explicit message and, for narrow lines, its parts.
    public init(_ code: Code, message: String, reason: String? = nil, address: String? = nil,
                hint: String? = nil, remedy: String? = nil) {
        self.code = code
        self.message = message
        self.reason = reason
        self.address = address
        self.hint = hint
        self.remedy = remedy
    }

    public var description: String { message }

    /// Nothing listens at `host:port`.
    public static func connectionRefused(host: String, port: Int) -> SourceError {
        SourceError(.connectionRefused, message:
            "cannot connect to gpsd at \(host):\(port): connection refused. Is gpsd running? (sudo systemctl start gpsd)",
            reason: "connection refused", address: "\(host):\(port)", hint: "is gpsd running?",
            remedy: "sudo systemctl start gpsd")
    }

    /// `host` does not resolve.
    public static func hostNotFound(host: String, port: Int) -> SourceError {
        // The port says nothing about a name that does not resolve: the reason names the host.
        SourceError(.hostNotFound, message:
            "cannot connect to gpsd at \(host):\(port): unknown host. Check the host name given with --gpsd.",
            reason: "host \(host) does not resolve", hint: "check the host name")
    }

    /// gpsd closed the connection.
    public static func connectionClosed(host: String, port: Int) -> SourceError {
        SourceError(.connectionClosed, message: "gpsd at \(host):\(port) closed the connection",
                    reason: "connection closed", address: "\(host):\(port)")
    }

    /// Connecting to gpsd at `host:port` did not complete: the kernel gave up waiting.
    public static func timedOut(host: String, port: Int) -> SourceError {
        SourceError(.timedOut, message:
            "cannot connect to gpsd at \(host):\(port): no answer. Check the host and port, and any firewall between.",
            reason: "no answer", address: "\(host):\(port)", hint: "check the host, the port and any firewall")
    }

    /// Nothing came from `host:port` within `timeout`: the connect did not complete, or the
    /// peer accepted and said nothing (gpsd greets every client at once).
    public static func noAnswer(host: String, port: Int, within timeout: Duration) -> SourceError {
        let seconds = timeout.inSeconds
        let shown = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
        return SourceError(.timedOut, message:
            "no answer from gpsd at \(host):\(port) within \(shown) s. Is gpsd listening there? Check the host, the port and any firewall between.",
            reason: "no answer in \(shown) s", address: "\(host):\(port)", hint: "is gpsd listening there?",
            remedy: "check the host, the port and any firewall")
    }

    /// gpsd has no receiver attached.
    public static func noReceiver(host: String, port: Int) -> SourceError {
        SourceError(.noReceiver, message:
            "no GPS receiver is attached to gpsd at \(host):\(port). Plug one in, or add it with 'gpsdctl add /dev/ttyUSB0'.",
            reason: "no GPS receiver attached", address: "\(host):\(port)", hint: "plug one in",
            remedy: "gpsdctl add /dev/ttyUSB0")
    }
}
