import GPSReports
#if canImport(Glibc)
import Glibc
#endif

extension ParallelTPVJSON {
    /// The calling thread's part: the one true decoder, the order of the output, and the
    /// decision, chunk by chunk, whether a worker's output can be used.
    struct Coordinator: ~Copyable {
        private let fd: Int32
        private let path: String
        private let chunkSize: Int
        private let write: (UnsafeRawBufferPointer) -> Bool
        private var decoder: NMEAStreamDecoder
        /// Only the fixes before a chunk's checkpoint, as a rule: a few kilobytes.
        private var writer = JSONWriter(capacity: 8192)
        private var reports: [Report] = []
        /// Bytes read for the true decoder: `carry` of them, at the front, not consumed yet.
        private let buffer: UnsafeMutablePointer<UInt8>
        /// Short reads: what this thread decodes is mostly the stretch before a chunk's first
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

        init(fd: Int32, path: String, chunkSize: Int, write: @escaping (UnsafeRawBufferPointer) -> Bool) {
            self.fd = fd
            self.path = path
            self.chunkSize = chunkSize
            self.write = write
            decoder = NMEAStreamDecoder(device: path)
            // As ReplayReader.forEachFixBatch sets its decoder: TPV numbers only.
            decoder.assembler.collectsRawFixes = true
            decoder.assembler.wantsSky = false
            decoder.assembler.wantsAttitude = false
            buffer = .allocate(capacity: capacity)
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

        /// Replays the file's `size` bytes, and whatever was added to it since, chunk by chunk.
        mutating func run(size: Int, shared: Shared) throws(SourceError) -> Outcome {
            let chunks = (size + chunkSize - 1) / chunkSize
            let jobs = (0..<min(ParallelTPVJSON.depth, chunks)).map { _ in Job(chunkSize: chunkSize) }
            var adopted = 0
            var decodedAgain = 0
            for index in jobs.indices { submit(jobs[index], chunk: index, size: size, shared: shared) }
            for index in 0..<chunks {
                let job = jobs[index % jobs.count]
                job.done.wait()
                if let failure = job.failure { throw failure }
                if try adopt(job) { adopted += 1 } else { decodedAgain += 1 }
                guard written else { break }
                if index + jobs.count < chunks { submit(job, chunk: index + jobs.count, size: size, shared: shared) }
            }
            if written { try finish() }
            return Outcome(fixes: fixes, written: written,
                           statistics: decoder.statistics.combined(with: adoptedStatistics, sign: 1),
                           adopted: adopted, decodedAgain: decodedAgain)
        }

        /// Queues chunk number `chunk`, to start from the true decoder's present state.
        private func submit(_ job: Job, chunk: Int, size: Int, shared: Shared) {
            job.start = chunk * chunkSize
            job.length = min(chunkSize, size - job.start)
            var seed = decoder.snapshot
            seed.assembler = seed.assembler.seed()
            job.seed = seed
            shared.submit(job)
        }

        /// Decodes up to the job's checkpoints one by one until the true state agrees with the
        /// worker's; then writes the worker's output from there and takes its final state.
        /// Returns whether it did.
        private mutating func adopt(_ job: Job) throws(SourceError) -> Bool {
            guard job.end >= 0, let final = job.final else { return false }
            for checkpoint in job.checkpoints where checkpoint.offset >= consumed {
                try advance(to: checkpoint.offset)
                guard carry == 0, consumed == checkpoint.offset, decoder.hasSameState(as: checkpoint.state) else { continue }
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
        private mutating func advance(to target: Int?) throws(SourceError) {
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
                consumed += ParallelTPVJSON.decodeBuffered(&decoder, buffer, carry: &carry, reports: &reports)
                collect()
            }
        }

        /// Decodes the rest of the file, then its unfinished last line as the end of the input,
        /// as ``ReplayReader`` does once `read(2)` has said so; writes what is left.
        private mutating func finish() throws(SourceError) {
            try advance(to: nil)
            if carry > 0 {
                consumed += ParallelTPVJSON.decode(&decoder, UnsafeBufferPointer(start: buffer, count: carry), from: 0,
                                                   atEnd: true, reports: &reports)
                carry = 0
                collect()
            }
            flush()
        }

        /// Formats the true decoder's fixes, writing once enough has gathered.
        private mutating func collect() {
            fixes += ParallelTPVJSON.format(&decoder, into: &writer)
            if writer.count >= ParallelTPVJSON.flushThreshold { flush() }
        }

        private mutating func flush() {
            guard writer.count > 0 else { return }
            if written { written = writer.withBytes(write) }
            writer.removeAll()
        }
    }
}
