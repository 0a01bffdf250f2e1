import Executors
import FoundationEssentials
import GPSReports
import NMEA
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Decodes on the calling thread and formats TPV JSON on a second one: the bulk path of
/// `geotrack replay --json`, which otherwise spends a third of its time printing numbers.
///
/// At most ``depth`` batches (one per chunk of input, ``ByteInput/chunkSize``) wait between the
/// two, so memory stays bounded and a slow reader of the output slows the decoding down instead
/// of piling up.
package enum TPVJSONPipeline {
    /// Batches in flight between the decoder and the formatter. Two keep both threads busy
    /// (replay's time is the same as with four) and hold half the memory: a batch holds the
    /// fixes of one chunk, about 900 in a typical log.
    static let depth = 2
    /// Output bytes gathered before one `write`.
    static let flushThreshold = 1 << 16

    private struct State {
        var queue: [([TPVValues], String?)] = []
        var spare: [[TPVValues]] = []
        var done = false
        var failed = false
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
        let items = ThreadSemaphore(value: 0)
        let slots = ThreadSemaphore(value: TPVJSONPipeline.depth)
        let finished = ThreadSemaphore(value: 0)
    }

    /// Writes every fix of `reader` as one TPV JSON line through `write`, which returns `false`
    /// when the output is gone. Returns the number of fixes and whether every write succeeded.
    ///
    /// The JSON is written on a thread of its own; where none can be made (or `threaded` is
    /// `false`), on the calling thread after each batch. The output is the same either way.
    package static func run(_ reader: ReplayReader, threaded: Bool = true,
                            write: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) throws(SourceError) -> (fixes: Int, written: Bool) {
        let shared = Shared()
        let formatter: @Sendable () -> Void = {
            var writer = JSONWriter(capacity: flushThreshold * 2)
            var ok = true
            while true {
                shared.items.wait()
                // Consumed, not copied: the batch's array must be unique when it is emptied
                // for reuse, or emptying it allocates a new one.
                let next = shared.state.withLock { s -> ([TPVValues], String?)? in
                    s.queue.isEmpty ? nil : s.queue.removeFirst()
                }
                guard let (batch, device) = consume next else { break }
                if ok { ok = format(batch, device: device, into: &writer, write: write) }
                // Nothing more queued: the reader waits for input, as on a pipe fed as a receiver
                // sends (`gpspipe -r | geotrack replay - --json`), so what is formatted goes out
                // now, not once a block has gathered. From a file this adds a write per chunk at most.
                if ok, writer.count > 0, shared.state.withLock({ $0.queue.isEmpty }) {
                    ok = writeOut(&writer, write)
                }
                var recycled = consume batch
                recycled.removeAll(keepingCapacity: true)
                let failed = !ok
                shared.state.withLock { s in
                    s.spare.append(recycled)
                    if failed { s.failed = true }
                }
                shared.slots.signal()
            }
            if ok { ok = writeOut(&writer, write) }
            if !ok { shared.state.withLock { $0.failed = true } }
            shared.finished.signal()
        }
        // Run in place of a thread, the formatter would wait for batches that only this thread,
        // blocked in it, could queue.
        guard threaded, DetachedThread.start(name: "geotrack json", formatter) else {
            return try runInline(reader, write: write)
        }
        let fixes: Int
        do {
            fixes = try reader.forEachFixBatch { batch, device in
                shared.slots.wait()
                // The batch's storage goes to the formatter as it is, and the reader fills an
                // emptied one from the formatter next: no fix is copied, and the lock is held
                // only to pass the two arrays.
                let failed = shared.state.withLock { s -> Bool in
                    var full = s.spare.popLast() ?? []
                    swap(&full, &batch)
                    s.queue.append((full, device))
                    return s.failed
                }
                shared.items.signal()
                return !failed
            }
        } catch {
            shared.state.withLock { $0.done = true }
            shared.items.signal()
            shared.finished.wait()
            throw error
        }
        shared.state.withLock { $0.done = true }
        shared.items.signal()
        shared.finished.wait()
        let failed = shared.state.withLock { $0.failed }
        return (fixes, !failed)
    }

    /// ``run(_:threaded:write:)`` on the calling thread alone.
    private static func runInline(_ reader: ReplayReader,
                                  write: (UnsafeRawBufferPointer) -> Bool) throws(SourceError) -> (fixes: Int, written: Bool) {
        var writer = JSONWriter(capacity: flushThreshold * 2)
        var ok = true
        let fixes = try reader.forEachFixBatch { batch, device in
            ok = format(batch, device: device, into: &writer, write: write)
            // Each batch's lines go out before the next read, which may wait on a pipe: nothing
            // is left in the writer after the last one.
            if ok { ok = writeOut(&writer, write) }
            return ok
        }
        return (fixes, ok)
    }

    /// Hands what `writer` holds to `write` and empties it; `false` when the write failed.
    private static func writeOut(_ writer: inout JSONWriter, _ write: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard writer.count > 0 else { return true }
        let ok = writer.withBytes(write)
        writer.removeAll()
        return ok
    }

    /// Fixes formatted between two looks at the output's size: a few kilobytes of JSON.
    private static let linesPerStep = 32

    /// Appends `batch` to `writer` as TPV lines, handing the bytes to `write` whenever they pass
    /// ``flushThreshold``: within the batch, so the buffer never outgrows the threshold by more
    /// than ``linesPerStep`` lines (a batch's JSON alone can be larger). Returns `false` once a
    /// write has failed.
    private static func format(_ batch: [TPVValues], device: String?, into writer: inout JSONWriter,
                               write: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        batch.withUnsafeBufferPointer { all in
            var from = 0
            while from < all.count {
                let to = min(all.count, from + linesPerStep)
                writer.tpvLines(UnsafeBufferPointer(rebasing: all[from..<to]), device: device)
                from = to
                if writer.count >= flushThreshold, !writeOut(&writer, write) { return false }
            }
            return true
        }
    }
}
