import Executors
import FoundationEssentials
import GPSReports
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a ``ReplayReader`` on a thread of its own, one batch of reports per request.
///
/// Reading may block (a pipe, a tty, stdin), so it never happens on the cooperative pool. The
/// worker reads only when asked, so nothing piles up ahead of a slow consumer. Cancelling
/// resumes a waiting request at once, even if the thread is still stuck in `read(2)`.
final class ReplayWorker: Sendable {
    /// What one request yields.
    enum Output: Sendable {
        /// The file is open and its format known (the first answer).
        case opened
        /// Up to ``batchSize`` reports.
        case reports([Report])
        /// The input ended.
        case end(ReplayStatistics)
        /// Opening or reading failed.
        case failed(SourceError, ReplayStatistics)
        /// The consumer cancelled.
        case cancelled
    }

    /// Most reports per answer.
    static let batchSize = 64

    private struct State {
        var request: CheckedContinuation<Output, Never>?
        var requested = 0
        var cancelled = false
    }

    private let state = Mutex(State())
    private let wake = ThreadSemaphore(value: 0)

    init(path: String, format: ReplayFormat?) {
        DetachedThread.startOrRun(name: "geotrack.replay") { [self] in run(path: path, format: format) }
    }

    /// The next batch; `.cancelled` when the calling task is cancelled.
    func next() async -> Output {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Output, Never>) in
                let cancelled = state.withLock { s -> Bool in
                    if s.cancelled { return true }
                    s.request = continuation
                    s.requested += 1
                    return false
                }
                if cancelled { continuation.resume(returning: .cancelled) } else { wake.signal() }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Stops the worker; a waiting request gets `.cancelled`.
    func cancel() {
        let waiting = state.withLock { s -> CheckedContinuation<Output, Never>? in
            s.cancelled = true
            defer { s.request = nil }
            return s.request
        }
        waiting?.resume(returning: .cancelled)
        wake.signal()
    }

    private func deliver(_ output: Output) {
        let waiting = state.withLock { s -> CheckedContinuation<Output, Never>? in
            defer { s.request = nil }
            return s.request
        }
        waiting?.resume(returning: output)
    }

    private func run(path: String, format: ReplayFormat?) {
        var reader: ReplayReader?
        while true {
            wake.wait()
            if state.withLock({ $0.cancelled }) { return }
            guard state.withLock({ $0.request != nil }) else { continue }
            guard let open = reader else {
                do {
                    reader = try ReplayReader(path: path, format: format)
                    deliver(.opened)
                    continue
                } catch {
                    deliver(.failed(error, ReplayStatistics()))
                    return
                }
            }
            var batch: [Report] = []
            batch.reserveCapacity(Self.batchSize)
            do {
                while batch.count < Self.batchSize {
                    // The first report may wait for input; the rest take only what is read
                    // already. A pipe fed as a receiver sends (`gpspipe -r | geotrack replay -`)
                    // otherwise had its reports held until 64 had come, or the input ended.
                    guard let report = batch.isEmpty ? try open.next() : open.nextReady() else { break }
                    batch.append(report)
                }
            } catch {
                deliver(batch.isEmpty ? .failed(error, open.statistics) : .reports(batch))
                if !batch.isEmpty {
                    // Hand the reports over first; the failure follows on the next request.
                    wake.wait()
                    if state.withLock({ $0.cancelled }) { return }
                    deliver(.failed(error, open.statistics))
                }
                return
            }
            if batch.isEmpty {
                deliver(.end(open.statistics))
                return
            }
            deliver(.reports(batch))
        }
    }
}
