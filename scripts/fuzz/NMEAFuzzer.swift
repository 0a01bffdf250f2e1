// libFuzzer entry point for the NMEA and GPX decoders (built by scripts/fuzz-nmea.sh).
//
// Each input is decoded twice, as NMEA and as GPX, in uneven slices so that lines split across
// reads are exercised too. The decoders must not crash, hang or trip the address sanitizer, and
// every fix they report must have a valid position when it has one. Then, as a file, it is
// replayed as TPV JSON by one decoder and in chunks on worker threads (TPVJSONBulk's ParallelTPVJSON), cut at
// sizes the input picks: the two must print the same bytes and count the same.
import GPSReports
@testable import NMEA
import Synchronization
import TPVJSONBulk
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var nmea = NMEAStreamDecoder(device: "fuzz")
    var gpx = GPXStreamDecoder(device: "fuzz")
    var reports: [Report] = []
    var offset = 0
    var carried: [UInt8] = []
    let slice = max(1, Int(size % 97) + 1)
    while offset < size || !carried.isEmpty {
        let take = min(slice, size - offset)
        carried.append(contentsOf: bytes[offset..<(offset + take)])
        offset += take
        let atEnd = offset >= size
        let used = carried.withUnsafeBufferPointer { nmea.consume($0, atEnd: atEnd, into: &reports) }
        carried.removeFirst(used)
        check(reports)
        reports.removeAll(keepingCapacity: true)
        if atEnd && used == 0 { break }
    }
    var at = 0
    while at < size {
        let used = UnsafeBufferPointer(rebasing: bytes[at...]).withMemoryRebound(to: UInt8.self) {
            gpx.consume($0, atEnd: true, into: &reports)
        }
        check(reports)
        reports.removeAll(keepingCapacity: true)
        at += max(used, 1)
    }
    compareChunkedReplay(bytes)
    return 0
}

private func compareChunkedReplay(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count >= 2, let base = bytes.baseAddress else { return }
    let path = "/tmp/geotrack-fuzz-\(getpid()).nmea"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { fatalError("cannot write \(path)") }
    var written = 0
    while written < bytes.count {
        let count = write(fd, base + written, bytes.count - written)
        guard count > 0 else { fatalError("cannot write \(path)") }
        written += count
    }
    close(fd)
    defer { unlink(path) }
    guard let reader = try? ReplayReader(path: path), reader.format == .nmea else { return }
    let whole = Mutex<[UInt8]>([])
    guard (try? TPVJSONPipeline.run(reader, threaded: false, write: { chunk in
        whole.withLock { $0.append(contentsOf: chunk) }
        return true
    })) != nil else { fatalError("the single decoder failed") }
    let chunked = Mutex<[UInt8]>([])
    let chunkSize = max(1, bytes.count / (2 + Int(bytes[0] % 7)))
    // Checkpoints within the small chunks of a fuzz input, so that workers' output is used.
    let first = 8 + Int(bytes[1] % 64)
    let checkpoints = [first, first * 3, first * 9, first * 27]
    guard let outcome = try? ParallelTPVJSON.run(path: path, chunkSize: chunkSize, checkpoints: checkpoints, write: { chunk in
        chunked.withLock { $0.append(contentsOf: chunk) }
        return true
    }) else { fatalError("ParallelTPVJSON declined a file of \(bytes.count) bytes in chunks of \(chunkSize)") }
    if whole.withLock({ $0 }) != chunked.withLock({ $0 }) || outcome.statistics != reader.statistics {
        fatalError("chunks of \(chunkSize): the chunked replay differs from the single decoder")
    }
}

private func check(_ reports: [Report]) {
    for report in reports {
        guard case .fix(let fix) = report else { continue }
        if let lat = fix.latitude, !(abs(lat) <= 90) { fatalError("latitude \(lat)") }
        if let lon = fix.longitude, !(abs(lon) <= 180) { fatalError("longitude \(lon)") }
    }
}
