import GPSReports

/// Maps a source's failure to the exit status that goes with it.
extension CLIError {
    /// The CLI error for a source error.
    package init(_ error: SourceError) {
        let status: ExitStatus = switch error.code {
        case .connectionRefused, .hostNotFound, .unreachable, .connectionClosed, .timedOut, .noReceiver: .unavailable
        case .unreadableFile: .noInput
        case .protocolError: .dataError
        case .io: .ioError
        case .libraryMissing: .libraryMissing
        }
        self.init(status, error.advisedMessage)
    }
}
