import Executors
import GPSReports
import NMEA
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `geotrack replay FILE --json` on every core: worker threads decode and format whole chunks of
/// the file at once, each from a guessed starting state, and the one true decoder takes a
/// chunk's output from the first point where the two states agree.
///
/// How a chunk is used:
/// - A worker reads its chunk with `pread`, starts at the first line that begins in it, from a
///   guessed state (`NMEAStreamDecoder.State.seed()` of the latest state the worker on the chunk
///   before has reached, or of the true decoder's when that chunk is taken), and decodes
///   to the last line that ends in it. It formats every fix as TPV JSON, and notes its state,
///   counts and output length at checkpoints: close together near the start (2, 4, … 32 KiB
///   in), where the states agree as a rule, then further apart up to the chunk's end.
/// - Chunks are taken in the file's order. The worker that finishes the next chunk to be taken
///   (or finds it finished) takes it, and any finished after it: it decodes with the true
///   decoder from where that stands to the first checkpoint and compares its state with the
///   worker's there (`==` of their `NMEAStreamDecoder.State`s). Once they agree, the same bytes
///   can only make the same fixes: the worker's output from that point is written as it is, and
///   its state at the chunk's end becomes the true one. Until they agree it tries the next
///   checkpoint; when none agrees, it decodes the chunk itself with the true decoder.
///
/// Nothing is guessed in the output: every byte written was made from the true state, or from
/// a state found equal to it. The cost of a wrong guess is time, never a different line.
///
/// The calling thread only starts the run and waits for its end: a thread of its own for the
/// true decoder was woken once per chunk, and on two cores each wake-up took a core from a
/// worker (a context switch and a cold cache each time, about 5 % of the run's CPU time).
///
/// The file must be a regular file (chunks are read at their offsets) holding NMEA; anything
/// else takes ``TPVJSONPipeline``. Memory stays bounded: ``depth`` chunks in flight, each with
/// its output.
package enum ParallelTPVJSON {
    /// Bytes per chunk. Large enough that the hand-overs cost little (each chunk's first
    /// kilobytes are decoded twice, once from the guessed state and once from the true one, and
    /// where the guessed state lags for long, tens of kilobytes), small enough that the chunks
    /// in flight, with their JSON, stay within two megabytes (`make check-budgets` holds the
    /// replay's peak memory).
    package static let defaultChunkSize = 384 * 1024
    /// Chunks in flight: one for each worker. Three chunks of 128 KiB, one of them waiting, held
    /// the same memory and took 4.6 % more CPU time (medians of 21 alternating runs); three of
    /// 192 KiB were no faster than two and held 0.3 MB more at 1 GB.
    static let depth = 2
    /// Where the checkpoints are, in bytes after a chunk's first line: a receiver's reporting
    /// cycle is well under a kilobyte, and two or three of them make the states agree as a
    /// rule. Some state lasts longer: DOPs kept from a sky view long past (a receiver that
    /// stopped sending complete ones), the constellations seen, a cycle's learned end. Where a
    /// chunk starts in such a stretch, the later checkpoints let the true decoder take the
    /// worker's output from where it ends instead of decoding the whole chunk again; each
    /// checkpoint costs a copy of the state, so they are sparse there.
    package static let checkpointDistances = [2048, 4096, 8192, 16_384, 32_768, 49_152, 65_536, 98_304, 131_072, 163_840, 229_376, 294_912, 360_448]
    /// Bytes read and decoded at a time, between which the fixes are formatted: the fixes
    /// waiting in between stay a few kilobytes. From 16 KiB, half as many `pread`s took 1 % less
    /// CPU for 124 KiB more at 1 GB; 64 KiB saved 1.4 % for 416 KiB.
    static let slice = 32 * 1024
    /// Bytes kept after every read buffer, initialized and never filled from the file: the
    /// decoder's one-pass framing reads that far past a line's start, so the lines just before a
    /// checkpoint or a buffer's end are framed in one pass too (see
    /// ``NMEAStreamDecoder/consume(_:readable:atEnd:into:)``).
    static let padding = NMEAStreamDecoder.scanReadable
    /// Output bytes the true decoder gathers before one `write`: it formats only the
    /// fixes before a checkpoint, as a rule, and a larger buffer only grew to twice this.
    static let flushThreshold = 16 * 1024

    /// What a run did.
    package struct Outcome: Sendable {
        /// Fixes written.
        package var fixes: Int
        /// Whether every write succeeded.
        package var written: Bool
        /// What was read and skipped, the same counts as a decoder reading the file whole.
        package var statistics: ReplayStatistics
        /// Chunks whose workers' output was used, and chunks the calling thread decoded itself
        /// (no checkpoint agreed, or no line began and ended in the chunk).
        package var adopted: Int
        package var decodedAgain: Int
    }

    /// Replays the NMEA log at `path` as TPV JSON lines through `write`, which returns `false`
    /// when the output is gone. `write` is called on the worker threads, one call at a time, in
    /// the output's order. Returns `nil`, having written nothing, when the file is not a regular
    /// file of at least two chunks holding NMEA, or no worker thread can be started: the caller
    /// then takes ``TPVJSONPipeline``.
    ///
    /// `workers` is how many threads decode; the calling thread waits. `checkpoints` are the
    /// distances from a chunk's first line to its checkpoints, growing; tests and the fuzzer give
    /// short ones, so that small chunks are taken from workers too.
    package static func run(path: String, chunkSize: Int = defaultChunkSize, workers: Int = 2,
                            checkpoints: [Int] = checkpointDistances,
                            write: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) throws(SourceError) -> Outcome? {
        // Only a regular file is opened here: opening a named pipe (then left to the pipeline)
        // would let its writer write the whole log into this open and go, and closing it would
        // throw the log away, leaving the pipeline's own open waiting for a writer.
        var named = stat()
        guard stat(path, &named) == 0, (named.st_mode & S_IFMT) == S_IFREG else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard chunkSize > 0, size >= 2 * chunkSize else { return nil }
        let coordinator = Coordinator(fd: fd, path: path, chunkSize: chunkSize, size: size, write: write)
        guard try coordinator.holdsNMEA() else { return nil }
        let shared = Shared(coordinator: coordinator)
        var started = 0
        for index in 0..<max(1, workers) {
            let worker = Worker(fd: fd, path: path, checkpoints: checkpoints, shared: shared)
            guard DetachedThread.start(name: "geotrack chunk \(index)", { worker.run() }) else { break }
            started += 1
        }
        guard started > 0 else { return nil }
        defer { shared.stop(workers: started) }
        coordinator.start(shared: shared)
        shared.waitUntilComplete()
        return try coordinator.finish()
    }

    /// One chunk: what the true decoder asks for, then what a worker made of it. Passed between
    /// the two through ``Shared``: one of them at a time uses it.
    final class Job: @unchecked Sendable {
        /// The chunk's number and its bytes in the file.
        var chunk = 0
        var start = 0
        var length = 0
        /// The state the worker starts from.
        var seed: NMEAStreamDecoder.State?

        /// Where the worker stopped (its last consumed byte, plus one), and its state, counts
        /// and fixes there. `end` is -1 when no line began and ended in the chunk.
        var end = -1
        var final: NMEAStreamDecoder.State?
        var finalStatistics = ReplayStatistics()
        var fixes = 0
        var checkpoints: [Checkpoint] = []
        /// The chunk's fixes as TPV JSON lines: about as many bytes as the chunk, made room for
        /// at once (growing it step by step left the steps' memory behind), with room for the
        /// lines of a chunk of short sentences, which run to more bytes than the chunk: a writer
        /// that outgrows its room doubles it, and keeps that for the rest of the run.
        var output: JSONWriter
        var failure: SourceError?
        /// Whether a worker is done with it and it waits to be taken; read and written only
        /// under ``Shared``'s lock.
        var finished = false
        /// The worker's latest state in this chunk (at its last checkpoint, or its end), while it
        /// decodes it: the next chunk starts from there, a guess much closer to its first line
        /// than the true decoder's state, which is a whole chunk behind. Cleared when the job is
        /// submitted.
        let latest = Mutex<NMEAStreamDecoder.State?>(nil)

        init(chunkSize: Int) {
            output = JSONWriter(capacity: chunkSize + chunkSize / 2)
            checkpoints.reserveCapacity(checkpointDistances.count)
        }
    }

    /// A worker's state at a file offset, with its counts, fixes and output length there.
    struct Checkpoint {
        var offset: Int
        var state: NMEAStreamDecoder.State
        var statistics: ReplayStatistics
        var fixes: Int
        var outputCount: Int
    }

    /// The queue of jobs for the workers, and who takes finished chunks into the output.
    final class Shared: Sendable {
        private struct State {
            /// Submitted, not started.
            var jobs: [Job] = []
            var stopping = false
            /// Whether a worker is taking finished chunks; the others leave theirs to it.
            var taking = false
        }

        private let state = Mutex(State())
        private let available = ThreadSemaphore(value: 0)
        private let exited = ThreadSemaphore(value: 0)
        private let complete = ThreadSemaphore(value: 0)
        /// Used only by the worker that is taking chunks (`taking`), or by the calling thread
        /// before the first job and after the last: the lock hands it from one to the next.
        private let coordinator: Coordinator

        init(coordinator: Coordinator) {
            self.coordinator = coordinator
        }

        func submit(_ job: Job) {
            state.withLock { $0.jobs.append(job) }
            available.signal()
        }

        /// The next job, or `nil` once the workers are to stop.
        func next() -> Job? {
            available.wait()
            return state.withLock { state in
                state.stopping || state.jobs.isEmpty ? nil : state.jobs.removeFirst()
            }
        }

        /// Called by a worker done with `job`: takes it, and every chunk finished after it, into
        /// the output when it is the next chunk in the file and no other worker is taking chunks.
        func finished(_ job: Job) {
            let takes = state.withLock { state in
                job.finished = true
                guard !state.taking, !state.stopping else { return false }
                state.taking = true
                return true
            }
            guard takes else { return }
            while true {
                // Whether the next chunk is finished, and if not, giving up the taking in the
                // same lock: a worker finishing it later then finds nobody taking, and takes it.
                let ready: Job? = state.withLock { state in
                    if !state.stopping, let next = coordinator.awaited, next.finished {
                        next.finished = false
                        return next
                    }
                    state.taking = false
                    return nil
                }
                guard let ready else { return }
                guard coordinator.take(ready, shared: self) else {
                    // The last chunk, or a failure: nobody takes chunks from here on.
                    state.withLock { $0.stopping = true }
                    complete.signal()
                    return
                }
            }
        }

        /// Blocks the calling thread until the last chunk is taken or the run has failed.
        func waitUntilComplete() { complete.wait() }

        func workerExited() { exited.signal() }

        /// Drops the jobs not started, stops the workers and waits until they are gone (they
        /// read the file, which the caller closes next).
        func stop(workers: Int) {
            state.withLock { state in
                state.stopping = true
                state.jobs.removeAll()
            }
            for _ in 0..<workers { available.signal() }
            for _ in 0..<workers { exited.wait() }
        }
    }
}
