import Foundation
import GPSReports
import GeoTrackTesting
import Testing
@testable import NMEA

/// Real receivers' logs (from gpsd's regression tests) against gpsd 3.22's own decoding of them.
@Suite("Corpus against gpsd")
struct CorpusTests {
    static let logs = ["garmin15x", "garmin48", "gp-320fw-2019-03-28", "magellan-ec10", "sl869", "telit-pls83-w", "ublox-neo-m9n-nmea"]
    static let rawLogs = ["gpsdf.raw.log", "mtk-3301.raw.log", "quectelLC79D.raw.log", "beidou-bd.raw.log"]
    static let rollover = 1024.0 * 7 * 86400

    @Test("every gpsd fix is reproduced: time, mode, position, altitude, speed, track", arguments: logs)
    func matchesGPSD(_ name: String) throws {
        let reader = try ReplayReader(path: try logPath(name + ".nmea"))
        var ours: [Double: Fix] = [:]
        while let report = try reader.next() {
            if case .fix(let fix) = report, fix.hasPosition, let time = fix.time {
                ours[(time.timeIntervalSince1970 * 1000).rounded() / 1000] = fix
            }
        }
        let expected = try String(contentsOfFile: try logPath(name + ".tpv.jsonl"), encoding: .utf8)
        var gpsd: [Double: [String: Any]] = [:]
        for line in expected.split(whereSeparator: \.isNewline) {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  (object["mode"] as? Int ?? 0) >= 2, object["lat"] != nil,
                  let time = object["time"] as? String, let date = ISO8601DateFormatter.withFractions.date(from: time)
            else { continue }
            gpsd[(date.timeIntervalSince1970 * 1000).rounded() / 1000] = object
        }
        #expect(!gpsd.isEmpty)
        for (time, object) in gpsd {
            // gpsd moves old dates forward by 1024 weeks; the replay keeps the receiver's date.
            let fix = ours[time] ?? ours[time - Self.rollover] ?? ours[time - 2 * Self.rollover]
            guard let fix else {
                Issue.record("\(name): no fix at \(object["time"] ?? time)")
                continue
            }
            #expect(fix.mode.rawValue == object["mode"] as? Int, "\(name) \(time)")
            #expect(abs((fix.latitude ?? .nan) - (object["lat"] as? Double ?? .nan)) <= 1e-7)
            #expect(abs((fix.longitude ?? .nan) - (object["lon"] as? Double ?? .nan)) <= 1e-7)
            if let alt = object["altMSL"] as? Double { #expect(abs((fix.altitudeMSL ?? .nan) - alt) <= 0.01) }
            if let speed = object["speed"] as? Double { #expect(abs((fix.speed ?? .nan) - speed) <= 0.005) }
            if let track = object["track"] as? Double {
                let d = abs((fix.track ?? .nan) - track)
                #expect(min(d, 360 - d) <= 0.05)
            }
        }
    }

    @Test("raw logs with binary data, junk and a cut last line replay without error and give fixes", arguments: rawLogs)
    func rawLog(_ name: String) throws {
        let reader = try ReplayReader(path: try logPath(name))
        var count = 0
        while let report = try reader.next() {
            if case .fix(let fix) = report, fix.hasPosition { count += 1 }
        }
        #expect(count > 0)
        #expect(reader.statistics.sentences > 0)
    }

    @Test("every corpus raw log replays: binary, junk bytes, CRLF and a truncated last line included")
    func rawCorpus() throws {
        let names = try Corpus.names()
        #expect(names.count == 30)
        for name in names.map({ $0 + ".raw.log" }) {
            let reader = try ReplayReader(path: try Corpus.path(name))
            var positions = 0
            while let report = try reader.next() {
                if case .fix(let fix) = report, fix.hasPosition { positions += 1 }
            }
            #expect(positions > 0, "\(name)")
        }
    }
}

extension ISO8601DateFormatter {
    nonisolated(unsafe) static let withFractions: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
