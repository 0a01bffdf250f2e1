import GPSReports
import NMEA
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension ParallelTPVJSON {
    /// The one true decoder, the order of the output, and the decision, chunk by chunk, whether
    /// a worker's output can be used. One thread at a time uses it (``Shared`` says which).
    final class Coordinator: @unchecked Sendable {
        private let fd: Int32
        private let path: String
        private let chunkSize: Int
        /// The file's size when the run began, and the chunks it makes.
        private let size: Int
        private let chunks: Int
        private let write: @Sendable (UnsafeRawBufferPointer) -> Bool
        private var decoder: NMEAStreamDecoder
        /// Only the fixes before a chunk's checkpoint, as a rule: a few kilobytes.
        private var writer = JSONWriter(capacity: 8192)
        private var reports: [Report] = []
        /// Bytes read for the true decoder: `carry` of them, at the front, not consumed yet.
        private let buffer: UnsafeMutablePointer<UInt8>
        /// Short reads: what the true decoder reads is mostly the stretch before a chunk's first
        /// checkpoint, and the fixes of one read, formatted at once, stay a few kilobytes (with
        /// 16 KiB reads, a log of short sentences grew the output buffer to 128 KiB).
        private let capacity = 4 * 1024 + ByteInput.carryCapacity
        private var carry = 0
        /// How far into the file the true decoder has consumed.
        private var consumed = 0
        private var atEnd = false
        private var fixes = 0
        /// The counts of the stretches taken from workers.
        private var adoptedStatistics = ReplayStatistics()
        private var written = true
        private var failure: SourceError?
        /// One job per chunk in flight; chunk `n` is `jobs[n % jobs.count]`.
        private var jobs: [Job] = []
        /// The next chunk to be taken.
        private var next = 0
        private var adopted = 0
        private var decodedAgain = 0

        init(fd: Int32, path: String, chunkSize: Int, size: Int, write: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) {
            self.fd = fd
            self.path = path
            self.chunkSize = chunkSize
            self.size = size
            chunks = (size + chunkSize - 1) / chunkSize
            self.write = write
            // As ReplayReader.forEachFixBatch sets its decoder: TPV numbers only.
            decoder = NMEAStreamDecoder(collectingFixesFor: path)
            buffer = .allocate(capacity: capacity + ParallelTPVJSON.padding)
            buffer.initialize(repeating: 0, count: capacity + ParallelTPVJSON.padding)
        }

        deinit {
            buffer.deallocate()
        }

        /// Whether the file is NMEA by ``ReplayFormat``'s rule, over the bytes ``ReplayReader``'s
        /// first read would hold.
        func holdsNMEA() throws(SourceError) -> Bool {
            let limit = ByteInput.chunkSize + ByteInput.carryCapacity
            var offset = 0
            while offset < limit {
                let count = try ParallelTPVJSON.read(fd, path: path, into: buffer, count: min(capacity, limit - offset), at: offset)
                guard count > 0 else { break }
                if let format = ReplayFormat.decide(UnsafeBufferPointer(start: buffer, count: count), at: offset) {
                    return format == .nmea
                }
                offset += count
            }
            return true
        }

        /// Submits the first chunks, one job each.
        ///
        /// Every first job is made ready before any is queued: once the first is, a worker may
        /// finish it and take it, with the true decoder, while this thread still went on. (It did:
        /// copying the decoder's state for the second job as the worker changed it freed an array
        /// both held, which the fuzzer's address sanitizer caught.)
        func start(shared: Shared) {
            jobs = (0..<min(ParallelTPVJSON.depth, chunks)).map { _ in Job(chunkSize: chunkSize) }
            for index in jobs.indices { prepare(jobs[index], chunk: index) }
            let first = jobs
            for job in first { shared.submit(job) }
        }

        /// The job of the next chunk to be taken, while one is left.
        var awaited: Job? {
            next < chunks ? jobs[next % jobs.count] : nil
        }

        /// Takes the next chunk, which a worker has finished, into the output, and submits the
        /// chunk its job is for next. Returns `false` once there is nothing more to take: the
        /// last chunk is taken, the output is gone, or the chunk could not be read.
        func take(_ job: Job, shared: Shared) -> Bool {
            if let failure = job.failure {
                self.failure = failure
                return false
            }
            do throws(SourceError) {
                if try adopt(job) { adopted += 1 } else { decodedAgain += 1 }
            } catch {
                failure = error
                return false
            }
            next += 1
            guard written else { return false }
            if next - 1 + jobs.count < chunks {
                prepare(job, chunk: next - 1 + jobs.count)
                shared.submit(job)
            }
            return next < chunks
        }

        /// Once the workers are stopped: decodes whatever follows the last chunk (the file may
        /// have grown) and says what the run did, or throws what stopped it.
        func finish() throws(SourceError) -> Outcome {
            if let failure { throw failure }
            if written { try finishFile() }
            return Outcome(fixes: fixes, written: written,
                           statistics: decoder.statistics.combined(with: adoptedStatistics, sign: 1),
                           adopted: adopted, decodedAgain: decodedAgain)
        }

        /// Makes `job` the job of chunk number `chunk`, to start from the latest state a worker has
        /// reached in the chunk before it, when that one is still to be taken, or else from the
        /// true decoder's present state. Either is only a guess, checked at the chunk's checkpoints.
        private func prepare(_ job: Job, chunk: Int) {
            job.chunk = chunk
            job.start = chunk * chunkSize
            job.length = min(chunkSize, size - job.start)
            job.latest.withLock { $0 = nil }
            let guess: NMEAStreamDecoder.State
            if chunk - 1 >= next, let latest = jobs[(chunk - 1) % jobs.count].latest.withLock({ $0 }) {
                guess = latest
            } else {
                guess = decoder.state
            }
            job.seed = guess.seed()
        }

        /// Decodes up to the job's checkpoints one by one until the true state agrees with the
        /// worker's; then writes the worker's output from there and takes its final state.
        /// Returns whether it did.
        private func adopt(_ job: Job) throws(SourceError) -> Bool {
            guard job.end >= 0, let final = job.final else { return false }
            for checkpoint in job.checkpoints where checkpoint.offset >= consumed {
                try advance(to: checkpoint.offset)
                guard carry == 0, consumed == checkpoint.offset, decoder.state == checkpoint.state else { continue }
                flush()
                if written && checkpoint.outputCount < job.output.count {
                    written = job.output.withBytes { bytes in
                        write(UnsafeRawBufferPointer(rebasing: bytes[checkpoint.outputCount...]))
                    }
                }
                fixes += job.fixes - checkpoint.fixes
                adoptedStatistics = adoptedStatistics.combined(with: job.finalStatistics, sign: 1)
                    .combined(with: checkpoint.statistics, sign: -1)
                decoder.restore(final)
                consumed = job.end
                return true
            }
            return false
        }

        /// Decodes the file from where the true decoder stands up to `target`, or to the end of
        /// the file when `nil`. Stops short of `target` only at an unfinished line (kept in the
        /// buffer) or where the file ends.
        private func advance(to target: Int?) throws(SourceError) {
            while !atEnd, target.map({ consumed + carry < $0 }) ?? true {
                if carry > ByteInput.carryCapacity {
                    // As ByteInput does; the decoder never leaves this much unconsumed.
                    memmove(buffer, buffer + carry - ByteInput.carryCapacity, ByteInput.carryCapacity)
                    consumed += carry - ByteInput.carryCapacity
                    carry = ByteInput.carryCapacity
                }
                let wanted = min(capacity - carry, target.map { $0 - consumed - carry } ?? .max)
                let count = try ParallelTPVJSON.read(fd, path: path, into: buffer + carry, count: wanted, at: consumed + carry)
                if count == 0 {
                    atEnd = true
                    break
                }
                carry += count
                consumed += ParallelTPVJSON.decodeBuffered(&decoder, buffer, readable: capacity + ParallelTPVJSON.padding,
                                                           carry: &carry, reports: &reports)
                collect()
            }
        }

        /// Decodes the rest of the file, then its unfinished last line as the end of the input,
        /// as ``ReplayReader`` does once `read(2)` has said so; writes what is left.
        private func finishFile() throws(SourceError) {
            try advance(to: nil)
            if carry > 0 {
                consumed += ParallelTPVJSON.decode(&decoder, UnsafeBufferPointer(start: buffer, count: carry),
                                                   readable: capacity + ParallelTPVJSON.padding, from: 0,
                                                   atEnd: true, reports: &reports)
                carry = 0
                collect()
            }
            flush()
        }

        /// Formats the true decoder's fixes, writing once enough has gathered.
        private func collect() {
            fixes += ParallelTPVJSON.format(&decoder, into: &writer)
            if writer.count >= ParallelTPVJSON.flushThreshold { flush() }
        }

        private func flush() {
            guard writer.count > 0 else { return }
            if written { written = writer.withBytes(write) }
            writer.removeAll()
        }
    }
}
