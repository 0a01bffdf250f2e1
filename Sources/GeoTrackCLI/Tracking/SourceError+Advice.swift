import GPSReports

/// What a user of the geotrack command can do about a source error: the library says what
/// failed (``SourceError/message``), the command says what to check, in its own words and with
/// its own options.
extension SourceError {
    /// The first thing to check, in a few words ("is gpsd running?"), or nil.
    package var hint: String? {
        switch code {
        case .connectionRefused: "is gpsd running?"
        case .hostNotFound: "check the host name"
        case .unreachable: "is the network up?"
        case .timedOut: timeout == nil ? "check the host, the port and any firewall" : "is gpsd listening there?"
        case .noReceiver: "plug one in"
        case .connectionClosed, .protocolError, .io, .unreadableFile, .libraryMissing: nil
        }
    }

    /// A command or check that may help ("sudo systemctl start gpsd"), or nil.
    package var remedy: String? {
        switch code {
        case .connectionRefused: "sudo systemctl start gpsd"
        case .timedOut: timeout == nil ? nil : "check the host, the port and any firewall"
        case .unreachable: "check the host, and this machine's network"
        case .noReceiver: "gpsdctl add /dev/ttyUSB0"
        case .hostNotFound, .connectionClosed, .protocolError, .io, .unreadableFile, .libraryMissing: nil
        }
    }

    /// The message with what to do, as one line: "cannot connect to gpsd at localhost:2947:
    /// connection refused. Is gpsd running? (sudo systemctl start gpsd)".
    package var advisedMessage: String {
        switch code {
        case .connectionRefused: message + ". Is gpsd running? (sudo systemctl start gpsd)"
        // Any of the three layers may have set the host: the README's tour sets it in the environment.
        case .hostNotFound: message + ". Check the host name (--gpsd, gpsd.host in the configuration file, or GEOTRACK_GPSD_HOST)."
        case .timedOut:
            timeout == nil ? message + ". Check the host and port, and any firewall between."
                : message + ". Is gpsd listening there? Check the host, the port and any firewall between."
        case .noReceiver: message + ". Plug one in, or add it with 'gpsdctl add /dev/ttyUSB0'."
        case .unreachable: message + ". Check the host, and that this machine's network reaches it."
        case .connectionClosed, .protocolError, .io, .unreadableFile, .libraryMissing: message
        }
    }
}
