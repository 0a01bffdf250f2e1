/// Why a location source failed: a code, where, and a message that says what happened.
///
/// Compare errors by ``code``. The message names no command or option: a program adds the
/// advice its users can follow (GeoTrack's CLI, `SourceError+Advice.swift`, says "is gpsd
/// running? sudo systemctl start gpsd").
public struct SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: Sendable, Hashable {
        /// Nothing listens at the address.
        case connectionRefused
        /// The host name does not resolve.
        case hostNotFound
        /// No route leads to the host: its network, or the machine itself, is down.
        case unreachable
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
        /// A library the source needs (libgps) cannot be loaded: retrying cannot help.
        case libraryMissing
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, where: "cannot connect to gpsd at localhost:2947: connection refused".
    /// What to do about it is for the program to say (it knows its own options and commands).
    public var message: String
    /// The cause in a few words ("connection refused"), for a line too narrow for ``message``;
    /// nil when the message has no shorter form.
    public var reason: String?
    /// Where the source was tried ("localhost:2947"), when that is worth showing beside ``reason``.
    public var address: String?
    /// How long the source was waited for, for ``Code/timedOut`` after a deadline of the client's
    /// own (``noAnswer(host:port:within:)``); nil when the kernel gave up.
    public var timeout: Duration?

    /// Creates an error with an explicit message and, for narrow lines, its parts.
    public init(_ code: Code, message: String, reason: String? = nil, address: String? = nil, timeout: Duration? = nil) {
        self.code = code
        self.message = message
        self.reason = reason
        self.address = address
        self.timeout = timeout
    }

    /// The message, as ``message``.
    public var description: String { message }

    /// Nothing listens at `host:port`.
    public static func connectionRefused(host: String, port: Int) -> SourceError {
        SourceError(.connectionRefused, message: "cannot connect to gpsd at \(HostAndPort.text(host, port)): connection refused",
                    reason: "connection refused", address: HostAndPort.text(host, port))
    }

    /// `host` does not resolve.
    public static func hostNotFound(host: String, port: Int) -> SourceError {
        // The port says nothing about a name that does not resolve: the reason names the host.
        SourceError(.hostNotFound, message: "cannot connect to gpsd at \(HostAndPort.text(host, port)): unknown host",
                    reason: "host \(host) does not resolve")
    }

    /// No route leads to `host`: `reason` is the system's word for it ("No route to host").
    public static func unreachable(host: String, port: Int, reason: String) -> SourceError {
        SourceError(.unreachable, message: "cannot connect to gpsd at \(HostAndPort.text(host, port)): \(reason)",
                    reason: reason, address: HostAndPort.text(host, port))
    }

    /// gpsd closed the connection.
    public static func connectionClosed(host: String, port: Int) -> SourceError {
        SourceError(.connectionClosed, message: "gpsd at \(HostAndPort.text(host, port)) closed the connection",
                    reason: "connection closed", address: HostAndPort.text(host, port))
    }

    /// Connecting to gpsd at `host:port` did not complete: the kernel gave up waiting.
    public static func timedOut(host: String, port: Int) -> SourceError {
        SourceError(.timedOut, message: "cannot connect to gpsd at \(HostAndPort.text(host, port)): no answer",
                    reason: "no answer", address: HostAndPort.text(host, port))
    }

    /// Nothing came from `host:port` within `timeout`: the connect did not complete, or the
    /// peer accepted and said nothing (gpsd greets every client at once).
    public static func noAnswer(host: String, port: Int, within timeout: Duration) -> SourceError {
        let shown = seconds(timeout)
        return SourceError(.timedOut, message: "no answer from gpsd at \(HostAndPort.text(host, port)) within \(shown) s",
                           reason: "no answer in \(shown) s", address: HostAndPort.text(host, port), timeout: timeout)
    }

    /// `host:port` accepted the connection but listed no devices within `timeout`, as gpsd
    /// does at once: what listens there may not be gpsd.
    public static func noDeviceList(host: String, port: Int, within timeout: Duration) -> SourceError {
        let shown = seconds(timeout)
        return SourceError(.timedOut, message: "no device list from gpsd at \(HostAndPort.text(host, port)) within \(shown) s",
                           reason: "no device list in \(shown) s", address: HostAndPort.text(host, port), timeout: timeout)
    }

    /// A duration as a message shows it: whole seconds without a fraction.
    private static func seconds(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        return seconds == seconds.rounded() && abs(seconds) < 1e9 ? "\(Int(seconds))" : "\(seconds)"
    }

    /// gpsd has no receiver attached.
    public static func noReceiver(host: String, port: Int) -> SourceError {
        SourceError(.noReceiver, message: "no GPS receiver is attached to gpsd at \(HostAndPort.text(host, port))",
                     reason: "no GPS receiver attached", address: HostAndPort.text(host, port))
    }
}
