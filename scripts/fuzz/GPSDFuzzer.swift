// libFuzzer entry point for the checks on what gpsd sends (built by scripts/fuzz-nmea.sh).
//
// Each input is a byte stream from a gpsd, fed to GPSDLineBuffer in uneven slices (so lines
// split across reads are exercised), each line checked by JSONSyntax, parsed by libgps and
// judged by GPSDMessageDecoder. Nothing may crash, hang or trip the address sanitizer; every
// report that comes out must hold what the decoder promises (positions on the globe, times
// from the GPS era, no NaN, no negative error estimate); and a line JSONSyntax accepts must be
// one Foundation's JSON parser reads as an object too.
import Foundation
import GPSReports

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    // A small buffer, so the fuzzer reaches the too-long-line path cheaply.
    var lines = GPSDLineBuffer(maximumLineLength: 512)
    // libgps is opened at the first input, as at a first connection to gpsd.
    guard case .success(let library) = LibGPS.shared, var decoder = try? GPSDMessageDecoder(library: library) else {
        fatalError("libgps cannot be opened: apt install libgps-dev")
    }
    let slice = max(1, size % 131)
    var offset = 0
    while offset < size {
        let take = min(slice, size - offset)
        let taken = lines.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
        offset += max(taken, 1)
        while let line = lines.nextLine() {
            if line.count > 512 { fatalError("a line of \(line.count) bytes passed a 512-byte buffer") }
            let copy = Array(line)
            let accepted = JSONSyntax.isObject(UnsafeBufferPointer(line))
            if accepted { crossCheck(copy) }
            let outcome = decoder.decode(line)
            if case .rejected = outcome { continue }
            if !accepted { fatalError("a line JSONSyntax refused was decoded: \(String(decoding: copy, as: UTF8.self))") }
            if case .report(let report) = outcome { check(report) }
        }
    }
    return 0
}

/// JSONSyntax may be stricter than Foundation (depth), never laxer, except where Foundation
/// refuses valid JSON: a number with an exponent too large for a Double, or bytes that are not
/// UTF-8 (which JSONSyntax leaves to String's repair).
private func crossCheck(_ line: [UInt8]) {
    guard String(validating: line, as: UTF8.self) != nil else { return }
    let hasExponent = zip(line, line.dropFirst()).contains { first, second in
        (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") || first == UInt8(ascii: "."))
            && (second == UInt8(ascii: "e") || second == UInt8(ascii: "E"))
    }
    if hasExponent { return }
    let parsed = try? JSONSerialization.jsonObject(with: Data(line), options: [])
    if !(parsed is [String: Any]) {
        fatalError("JSONSyntax accepted what Foundation does not read as an object: \(String(decoding: line, as: UTF8.self))")
    }
}

private func check(_ report: Report) {
    switch report {
    case .fix(let fix):
        if let lat = fix.latitude, !(abs(lat) <= 90) { fatalError("latitude \(lat)") }
        if let lon = fix.longitude, !(abs(lon) <= 180) { fatalError("longitude \(lon)") }
        checkTime(fix.time)
        for value in [fix.altitudeHAE, fix.altitudeMSL, fix.geoidSeparation, fix.climb, fix.magneticVariation] {
            if let value, !value.isFinite { fatalError("a value that is not finite: \(value)") }
        }
        for value in [fix.eph, fix.sep, fix.epx, fix.epy, fix.epv, fix.ept, fix.speed, fix.eps, fix.epd, fix.epc] {
            if let value, !(value >= 0 && value.isFinite) { fatalError("an estimate of \(value)") }
        }
        for value in [fix.track, fix.magneticTrack] {
            if let value, !(0...360).contains(value) { fatalError("a direction of \(value)") }
        }
    case .sky(let sky):
        checkTime(sky.time)
        for satellite in sky.satellites {
            if let value = satellite.elevation, !(abs(value) <= 90) { fatalError("an elevation of \(value)") }
            if let value = satellite.azimuth, !(0...360).contains(value) { fatalError("an azimuth of \(value)") }
            if let value = satellite.signalStrength, !(value >= 0 && value.isFinite) { fatalError("a signal of \(value)") }
        }
        for value in [sky.xdop, sky.ydop, sky.vdop, sky.tdop, sky.hdop, sky.pdop, sky.gdop] {
            if let value, !(value >= 0 && value.isFinite) { fatalError("a dilution of \(value)") }
        }
    case .attitude(let attitude):
        checkTime(attitude.time)
        for value in [attitude.heading, attitude.magneticHeading] {
            if let value, !(0...360).contains(value) { fatalError("a heading of \(value)") }
        }
    default:
        break
    }
}

private func checkTime(_ time: Date?) {
    guard let seconds = time?.timeIntervalSince1970 else { return }
    if !(315_964_800...4_102_444_801).contains(seconds) { fatalError("a time of \(seconds)") }
}
