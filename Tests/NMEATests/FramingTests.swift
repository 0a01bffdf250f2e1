import CNMEA
import Foundation
import GPSReports
import GeoTrackTesting
import Testing
@testable import NMEA

/// The one-pass framing (`geotrack_nmea_scan`, in C) and the byte-by-byte framing must frame
/// every line the same way: the first takes the common lines, the second everything else and
/// every line too close to the end of a read.
@Suite("Framing sentences in one pass")
struct FramingTests {
    /// What the kernel makes of `text` (padded, as the decoder only calls it with enough bytes
    /// after the line): the `*`'s offset, the checksum and the commas' offsets, or nil for -1.
    static func scan(_ text: String) -> (star: Int, sum: UInt8, commas: [Int])? {
        var bytes = Array(text.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: Int(GEOTRACK_NMEA_SCAN_READABLE))
        var masks = [UInt16](repeating: 0xFFFF, count: Int(GEOTRACK_NMEA_SCAN_BLOCKS))
        var sum: UInt8 = 0
        let star = Int(geotrack_nmea_scan(bytes, &masks, &sum))
        guard star >= 0 else { return nil }
        var commas: [Int] = []
        for offset in 1..<star where masks[(offset - 1) / 16] & (1 << ((offset - 1) % 16)) != 0 {
            commas.append(offset)
        }
        return (star, sum, commas)
    }

    @Test("a plain sentence: its star, its checksum and its commas, up to the star only")
    func plainSentence() throws {
        let body = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
        for ending in ["\r\n", "\n"] {
            let line = SyntheticLog.checksummed(body) + ending
            let scanned = try #require(Self.scan(line))
            #expect(scanned.star == body.utf8.count)
            #expect(scanned.sum == body.utf8.dropFirst().reduce(0, ^))
            #expect(scanned.commas == Array(body.utf8).indices.filter { Array(body.utf8)[$0] == UInt8(ascii: ",") })
        }
        // Commas after the star (of the next line, or of padding) are not the sentence's.
        let scanned = try #require(Self.scan("$GPZDA,1*00\n,,,,"))
        #expect(scanned.commas == [6])
        // Every length from the shortest up to a star 251 bytes in, across every block boundary.
        for length in 0...244 {
            let body = "$GPTXT" + String(repeating: ",", count: length % 3 == 0 ? 0 : 1) + String(repeating: "a", count: length)
            let line = SyntheticLog.checksummed(body) + "\r\n"
            let scanned = try #require(Self.scan(line), "length \(length)")
            #expect(scanned.star == body.utf8.count)
            #expect(scanned.sum == body.utf8.dropFirst().reduce(0, ^))
        }
    }

    @Test("any other line is left to the byte-by-byte framing", arguments: [
        "$GPGGA,1,2*4A",                 // no line end within reach
        "$GPGGA,1,2*4A\r\r\n",           // two CRs
        "$GPGGA,1,2*4A\r",               // CR only
        "$GPGGA,1,2*4\r\n",              // one hex digit
        "$GPGGA,1,2*4$\r\n",             // a dollar among them
        "$GPGGA,1,2*\u{01}A\r\n",        // a control character among them
        "$GPGGA,1,2\r\n",                // no checksum
        "$GPGGA,1\u{00},2*4A\r\n",       // NUL before the star
        "$GPGGA,1\u{7F},2*4A\r\n",       // DEL
        "$GPGGA,1\u{FF},2*4A\r\n",       // a byte above ASCII
        "$GPGGA,1$GPRMC,2*4A\r\n",       // a second dollar
        "$GPGGA,1\n,2*4A\r\n",           // a line feed before the star
    ])
    func declined(_ line: String) {
        #expect(Self.scan(line) == nil)
    }

    @Test("a star too far for its line feed to lie within 256 bytes is declined")
    func tooLong() {
        #expect(Self.scan(SyntheticLog.checksummed("$GPTXT," + String(repeating: "a", count: 244)) + "\r\n") != nil)   // star at 251
        #expect(Self.scan(SyntheticLog.checksummed("$GPTXT," + String(repeating: "a", count: 245)) + "\r\n") == nil)   // star at 252
        #expect(Self.scan("$GPTXT," + String(repeating: "a", count: 300) + "*00\r\n") == nil)
    }

    /// Decodes `bytes` through one decoder fed `window` bytes at a time (the whole input when
    /// nil); returns every report as JSON, and the counts.
    static func decode(_ bytes: [UInt8], window: Int?) -> (reports: [String], statistics: ReplayStatistics) {
        var decoder = NMEAStreamDecoder(device: "d")
        var reports: [Report] = []
        var json: [String] = []
        bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            var position = 0
            while position < all.count {
                let count = min(window ?? all.count, all.count - position)
                let atEnd = position + count == all.count
                let used = decoder.consume(UnsafeBufferPointer(start: base + position, count: count), atEnd: atEnd, into: &reports)
                for report in reports {
                    if case .fix(let fix) = report { json.append(fix.tpvJSON()) } else { json.append("\(report)") }
                }
                reports.removeAll()
                if used == 0 && atEnd { break }
                position += used
            }
        }
        return (json, decoder.statistics)
    }

    @Test("whole logs, corrupted lines and random bytes frame the same in one pass as byte by byte")
    func sameAsByteByByte() throws {
        let directory = URL(fileURLWithPath: try logPath("garmin15x.nmea")).deletingLastPathComponent().path
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".nmea") || $0.hasSuffix(".raw.log") }.sorted()
        var inputs: [[UInt8]] = []
        for name in names { inputs.append(try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))) }
        // Lines of one log with bytes changed at random: near the star, in the checksum, the
        // line end, every kind of byte the framing looks at.
        var rng = SeededGenerator(seed: 0xF4A3_11E5)
        let alphabet: [UInt8] = [0x00, 0x0A, 0x0D, 0x20, 0x24, 0x2A, 0x2C, 0x7E, 0x7F, 0x80, 0xFF, 0x41, 0x61, 0x30]
        for name in names.prefix(12) {
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            for _ in 0..<max(1, bytes.count / 40) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = alphabet[Int.random(in: 0..<alphabet.count, using: &rng)]
            }
            inputs.append(bytes)
        }
        for _ in 0..<8 {
            inputs.append((0..<50_000).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
        }
        var sentences = 0
        for bytes in inputs {
            // 259 bytes at a time: a line never has the 260 bytes the one-pass framing needs.
            let byteByByte = Self.decode(bytes, window: Int(GEOTRACK_NMEA_SCAN_READABLE) - 1)
            let onePass = Self.decode(bytes, window: nil)
            #expect(onePass.statistics == byteByByte.statistics)
            #expect(difference(onePass.reports, byteByByte.reports) == "none")
            sentences += onePass.statistics.sentences
        }
        #expect(sentences > 10_000)
    }
}
