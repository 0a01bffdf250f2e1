import SystemPackage

/// The exit codes geotrack uses, from sysexits(3) where one fits. The README lists them.
package enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything went as asked.
    case success = 0
    /// Something failed that has no more specific code.
    case failure = 1
    /// The command line is wrong (EX_USAGE).
    case usage = 64
    /// An input file is unreadable or malformed (EX_DATAERR).
    case dataError = 65
    /// An input file does not exist or cannot be opened (EX_NOINPUT).
    case noInput = 66
    /// gpsd cannot be reached and no retry was asked for (EX_UNAVAILABLE).
    case unavailable = 69
    /// A library geotrack opens at first use (libgps, libmosquitto, libcurl, SQLite) cannot be
    /// loaded (EX_OSFILE): no retry or restart mends it before its package is installed, so a
    /// service unit keeps from restarting on it.
    case libraryMissing = 72
    /// An output file cannot be created (EX_CANTCREAT).
    case cannotCreate = 73
    /// Writing failed (EX_IOERR).
    case ioError = 74
    /// Worth trying again later (EX_TEMPFAIL): no fix arrived within --timeout, or another run is
    /// sending the destination's queue now.
    case temporaryFailure = 75
    /// Location access was denied (EX_NOPERM).
    case noPermission = 77
    /// The configuration has a bad value (EX_CONFIG).
    case config = 78
    /// Location access is undecided and there is no terminal to ask on: run `geotrack auth grant`.
    case authorizationRequired = 79
}

extension ExitStatus {
    /// What the status means, in a few words: `geotrack --help` and the man page list these.
    package var summary: String {
        switch self {
        case .success: "done: the source ended, --count was met, or a signal ended it"
        case .failure: "an unexpected failure"
        case .usage: "a bad option or argument"
        case .dataError: "not NMEA or GPX gpsd would read; stats: no timed fix"
        case .noInput: "no such replay, password or TLS file, or outbox destination"
        case .unavailable: "gpsd, or a broker, cannot be reached, or serve cannot listen"
        case .libraryMissing: "a library geotrack needs cannot be loaded: install its package"
        case .cannotCreate: "an output file, the outbox or the access decision cannot be used"
        case .ioError: "reading or writing failed, standard output included"
        case .temporaryFailure: "no fix within --timeout, or another geotrack sends that queue now"
        case .noPermission: "location access denied, or a broker refused the login"
        case .config: "a bad configuration value"
        case .authorizationRequired: "location access undecided, no terminal to ask on"
        }
    }
}
