import Foundation
import GPSReports
import Testing
@testable import NMEA
import GeoTrackTesting

/// Seeded random mutations of real corpus lines. The decoder must never crash, and a sentence
/// whose checksum no longer matches must have no effect at all: the fixes must be exactly those
/// of the same log with that line left out.
@Suite("Fuzzing corpus lines")
struct FuzzTests {
    enum Mutation: CaseIterable {
        case flipByte, cut, insertJunk, hugeField, hundredKilobytes, nulBytes, dropStar, swapDigits
    }

    private static func lines(_ name: String) throws -> [[UInt8]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: try logPath(name)))
        return Array(data).split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
    }

    private static func fixJSON(_ bytes: [UInt8]) throws -> [String] {
        try fixes(replay(bytes).reports).map { fix in
            var fix = fix
            fix.device = nil
            return fix.tpvJSON()
        }
    }

    /// `$P…` (not `$PQ…`, a talker) without a `*`: a line the decoder takes as a proprietary sentence.
    private static func isProprietaryWithoutChecksum(_ line: [UInt8]) -> Bool {
        line.count > 2 && line[0] == UInt8(ascii: "$") && line[1] == UInt8(ascii: "P") && line[2] != UInt8(ascii: "Q")
            && !line.contains(UInt8(ascii: "*"))
    }

    private static func mutate(_ line: [UInt8], _ mutation: Mutation, _ rng: inout SeededGenerator) -> [UInt8] {
        var line = line
        let body = max(1, line.count - 2)   // leave the line end alone unless cutting
        switch mutation {
        case .flipByte:
            let at = Int.random(in: 0..<body, using: &rng)
            line[at] ^= UInt8.random(in: 1...255, using: &rng)
        case .cut:
            line = Array(line.prefix(Int.random(in: 0..<body, using: &rng))) + [0x0A]
        case .insertJunk:
            let alphabet: [UInt8] = [0x00, 0xB5, 0x62, 0x24, 0x2A, 0x2C, 0x0D, 0x0A, 0xFF]
            var junk: [UInt8] = []
            for _ in 0..<Int.random(in: 1...24, using: &rng) {
                junk.append(alphabet[Int.random(in: 0..<alphabet.count, using: &rng)])
            }
            let at = body > 1 ? Int.random(in: 1..<body, using: &rng) : 0
            line.insert(contentsOf: junk, at: at)
        case .hugeField:
            let at = line.firstIndex(of: UInt8(ascii: ",")) ?? 1
            line.insert(contentsOf: Array(repeating: UInt8(ascii: "7"), count: Int.random(in: 30...5000, using: &rng)), at: at + 1)
        case .hundredKilobytes:
            let at = body > 1 ? Int.random(in: 1..<body, using: &rng) : 0
            line.insert(contentsOf: Array(repeating: UInt8(ascii: "1"), count: 100_001), at: at)
        case .nulBytes:
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                line[Int.random(in: 0..<body, using: &rng)] = 0
            }
        case .dropStar:
            if let star = line.firstIndex(of: UInt8(ascii: "*")) { line[star] = UInt8(ascii: ",") }
        case .swapDigits:
            let digits = line.indices.filter { line[$0] >= 0x30 && line[$0] <= 0x39 && $0 < body }
            if let a = digits.randomElement(using: &rng) {
                line[a] = line[a] == UInt8(ascii: "9") ? UInt8(ascii: "0") : line[a] + 1
            }
        }
        return line
    }

    @Test("a corrupted sentence never changes the fixes", arguments: ["garmin15x.nmea", "gp-320fw-2019-03-28.nmea", "telit-pls83-w.nmea"])
    func corruptedLinesHaveNoEffect(_ name: String) throws {
        let lines = try Self.lines(name)
        // Only sentence lines after the first checksummed one: a receiver that sends checksums.
        let sentenceLines = lines.indices.filter { lines[$0].first == UInt8(ascii: "$") }
        let candidates = Array(sentenceLines.dropFirst())
        var rng = SeededGenerator(seed: 0x5EED_0000 &+ UInt64(name.utf8.count))
        var checked = 0
        for round in 0..<120 {
            let index = candidates[Int.random(in: 0..<candidates.count, using: &rng)]
            let mutation = Mutation.allCases[round % Mutation.allCases.count]
            let mutated = Self.mutate(lines[index], mutation, &rng)
            var withMutation = lines
            withMutation[index] = mutated
            let got = try Self.fixJSON(withMutation.flatMap { $0 })
            // A proprietary sentence needs no checksum (gpsd reads them without one), so one
            // whose star is gone is still a sentence, and PGRME's errors or the error model run
            // after any sentence may change the fixes: not a corruption the decoder can see.
            guard !containsValidSentence(mutated), !Self.isProprietaryWithoutChecksum(mutated) else { continue }
            var without = lines
            without.remove(at: index)
            let expected = try Self.fixJSON(without.flatMap { $0 })
            #expect(got == expected, "\(name) line \(index) \(mutation): \(String(decoding: mutated.prefix(100), as: UTF8.self))")
            checked += 1
        }
        #expect(checked > 60)
    }

    @Test("many corruptions at once: no crash, no hang, and only valid coordinates")
    func manyCorruptions() throws {
        var rng = SeededGenerator(seed: 20_261_122)
        for name in ["ublox-neo-m9n-nmea.nmea", "gpsdf.raw.log", "sl869.nmea", "magellan-ec10.nmea"] {
            let lines = try Self.lines(name)
            for _ in 0..<8 {
                var mutated = lines
                for _ in 0..<max(1, lines.count / 10) {
                    let index = Int.random(in: 0..<mutated.count, using: &rng)
                    let mutation = Mutation.allCases.randomElement(using: &rng) ?? .flipByte
                    mutated[index] = Self.mutate(mutated[index], mutation, &rng)
                }
                let result = try replay(mutated.flatMap { $0 })
                for fix in fixes(result.reports) {
                    if let lat = fix.latitude { #expect(abs(lat) <= 90) }
                    if let lon = fix.longitude { #expect(abs(lon) <= 180) }
                    if let speed = fix.speed { #expect(speed.isFinite && speed >= 0) }
                }
                #expect(result.statistics.sentences > 0)
            }
        }
    }

    @Test("random bytes: never a crash, never a fix")
    func randomBytes() throws {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<30 {
            let bytes = (0..<Int.random(in: 0...200_000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let result = try replay(bytes, format: .nmea)
            #expect(positions(result.reports).isEmpty)
            let gpx = try replay(bytes, format: .gpx)
            #expect(positions(gpx.reports).isEmpty)
        }
    }
}
