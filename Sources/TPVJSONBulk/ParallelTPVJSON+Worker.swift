import GPSReports
import NMEA
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension ParallelTPVJSON {
    /// A thread that decodes chunks from the states it is given and formats their fixes.
    final class Worker: @unchecked Sendable {
        private let fd: Int32
        private let path: String
        private let shared: Shared
        private let distances: [Int]
        private var decoder: NMEAStreamDecoder
        private var reports: [Report] = []

        init(fd: Int32, path: String, checkpoints: [Int], shared: Shared) {
            self.fd = fd
            self.path = path
            distances = checkpoints
            self.shared = shared
            decoder = NMEAStreamDecoder(collectingFixesFor: path)
        }

        /// Takes jobs until told to stop.
        func run() {
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.readable)
            buffer.initialize(repeating: 0, count: Self.readable)
            defer {
                buffer.deallocate()
                shared.workerExited()
            }
            while let job = shared.next() {
                do throws(SourceError) {
                    try process(job, buffer)
                } catch {
                    job.failure = error
                }
                shared.finished(job)
            }
        }

        /// A slice of the chunk, and an unfinished line carried over from the one before.
        private static let capacity = ParallelTPVJSON.slice + ByteInput.carryCapacity
    /// The buffer's size: the slice, and the padding the one-pass framing reads past it.
    private static let readable = capacity + ParallelTPVJSON.padding

        /// Decodes the whole lines of the job's chunk, a slice at a time: from just after its
        /// first line feed up to the start of its last unfinished line.
        ///
        /// A checkpoint is where the decoder stops when given the bytes up to the checkpoint's
        /// distance: the slice is decoded up to there, the state noted, and decoding goes on in
        /// the same slice. (Reading up to each checkpoint instead cost four more `pread`s a chunk.)
        private func process(_ job: Job, _ buffer: UnsafeMutablePointer<UInt8>) throws(SourceError) {
            job.end = -1
            job.fixes = 0
            job.checkpoints.removeAll(keepingCapacity: true)
            job.output.removeAll()
            job.failure = nil
            guard let seed = job.seed else { return }
            let chunkEnd = job.start + job.length
            // The buffer holds `count` bytes of the file from `position`, of which the decoder has
            // taken `used`. Its first line starts after the chunk's first line feed.
            var position = job.start
            var count = 0
            var used = 0
            while true {
                guard position < chunkEnd else { return }
                count = try ParallelTPVJSON.read(fd, path: path, into: buffer, count: min(Self.capacity, chunkEnd - position), at: position)
                guard count > 0 else { return }
                if let feed = memchr(buffer, 0x0A, count) {
                    used = UnsafeMutableRawPointer(feed) - UnsafeMutableRawPointer(buffer) + 1
                    break
                }
                position += count
            }
            let begin = position + used
            // After a line feed: at the start of a line, neither in junk nor skipping a long line,
            // as a seed is.
            decoder.restore(seed)
            decoder.statistics = ReplayStatistics()
            while true {
                let next = job.checkpoints.count < distances.count ? begin + distances[job.checkpoints.count] : Int.max
                let limit = min(count, next - position)
                used = ParallelTPVJSON.decode(&decoder, UnsafeBufferPointer(start: buffer, count: limit), readable: Self.readable,
                                              from: used, atEnd: false, reports: &reports)
                job.fixes += ParallelTPVJSON.format(&decoder, into: &job.output)
                if position + limit == next {
                    // Any point the decoder stopped at is a state between two lines of the file.
                    let state = decoder.state
                    job.checkpoints.append(Checkpoint(offset: position + used, state: state,
                                                      statistics: decoder.statistics, fixes: job.fixes,
                                                      outputCount: job.output.count))
                    job.latest.withLock { $0 = state }
                    continue
                }
                // All the buffer holds is decoded that can be: done at the chunk's end; otherwise
                // the unfinished line moves to the front and the next slice is read after it.
                if position + count >= chunkEnd { break }
                position += used
                count -= used
                if count > 0 && used > 0 { memmove(buffer, buffer + used, count) }
                used = 0
                let wanted = min(Self.capacity - count, chunkEnd - position - count)
                let got = wanted > 0 ? try ParallelTPVJSON.read(fd, path: path, into: buffer + count, count: wanted, at: position + count) : 0
                // The file ended early, or a full buffer the decoder took nothing of.
                if got == 0 { break }
                count += got
            }
            job.end = position + used
            job.final = decoder.state
            let final = job.final
            job.latest.withLock { $0 = final }
            job.finalStatistics = decoder.statistics
        }
    }

    /// Feeds `bytes[from...]` to `decoder`, which may read up to `readable` bytes from their
    /// start (see ``NMEAStreamDecoder/consume(_:readable:atEnd:into:)``); returns where it stopped.
    static func decode(_ decoder: inout NMEAStreamDecoder, _ bytes: UnsafeBufferPointer<UInt8>, readable: Int,
                       from: Int, atEnd: Bool, reports: inout [Report]) -> Int {
        guard let base = bytes.baseAddress else { return from }
        var position = from
        while position < bytes.count {
            let used = decoder.consume(UnsafeBufferPointer(start: base + position, count: bytes.count - position),
                                       readable: readable - position, atEnd: atEnd, into: &reports)
            // The bulk path collects fixes, not reports; the decoder pauses at any report.
            reports.removeAll(keepingCapacity: true)
            guard used > 0 else { break }
            position += used
        }
        return position
    }

    /// Feeds the `carry` bytes at `buffer` to `decoder`, then moves what it left (an unfinished
    /// line) to the front and makes that the new `carry`; returns how many it took.
    static func decodeBuffered(_ decoder: inout NMEAStreamDecoder, _ buffer: UnsafeMutablePointer<UInt8>, readable: Int,
                               carry: inout Int, reports: inout [Report]) -> Int {
        let used = decode(&decoder, UnsafeBufferPointer(start: buffer, count: carry), readable: readable, from: 0,
                          atEnd: false, reports: &reports)
        carry -= used
        if carry > 0 && used > 0 { memmove(buffer, buffer + used, carry) }
        return used
    }

    /// Appends the decoder's collected fixes to `writer` as TPV lines, counts them as reports
    /// (as ``ReplayReader/forEachFixBatch(_:)`` does), and empties the collection; returns how many.
    @discardableResult
    static func format(_ decoder: inout NMEAStreamDecoder, into writer: inout JSONWriter) -> Int {
        let device = decoder.device
        return decoder.drainFixes { writer.tpvLines($0, device: device) }
    }

    /// Reads `count` bytes of `path` (open as `fd`) at `offset`, fewer only at the end of the
    /// file; returns how many. A failure names the file as the single decoder's does.
    static func read(_ fd: Int32, path: String, into buffer: UnsafeMutablePointer<UInt8>, count: Int,
                     at offset: Int) throws(SourceError) -> Int {
        var total = 0
        while total < count {
            let got = pread(fd, buffer + total, count - total, off_t(offset + total))
            if got > 0 {
                total += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                throw ByteInput.readError(path: path, errno: errno)
            }
        }
        return total
    }
}
