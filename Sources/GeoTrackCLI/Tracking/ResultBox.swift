import Synchronization

/// The tracker's failure, handed from the service to the session.
final class ResultBox: Sendable {
    private let storage = Mutex<CLIError?>(nil)
    var value: CLIError? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
