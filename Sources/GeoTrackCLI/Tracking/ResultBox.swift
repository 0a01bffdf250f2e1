import Synchronization

/// How the tracker ended, handed from the service to the session: its failure, or what ended
/// it by itself (nil for a signal).
final class ResultBox: Sendable {
    private let storage = Mutex<(failure: CLIError?, verdict: TrackerOutput.Verdict?)>((nil, nil))
    var value: CLIError? {
        get { storage.withLock { $0.failure } }
        set { storage.withLock { $0.failure = newValue } }
    }
    var verdict: TrackerOutput.Verdict? {
        get { storage.withLock { $0.verdict } }
        set { storage.withLock { $0.verdict = newValue } }
    }
}
