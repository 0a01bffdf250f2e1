// libFuzzer entry point for the NMEA and GPX decoders (built by scripts/fuzz-nmea.sh).
//
// Each input is decoded twice, as NMEA and as GPX, in uneven slices so that lines split across
// reads are exercised too. The decoders must not crash, hang or trip the address sanitizer, and
// every fix they report must have a valid position when it has one.
import GPSReports

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
    return 0
}

private func check(_ reports: [Report]) {
    for report in reports {
        guard case .fix(let fix) = report else { continue }
        if let lat = fix.latitude, !(abs(lat) <= 90) { fatalError("latitude \(lat)") }
        if let lon = fix.longitude, !(abs(lon) <= 180) { fatalError("longitude \(lon)") }
    }
}
