import GeoTrackTesting
import Foundation
import GPSReports

/// One TPV as gpsd's own tools print it (gpsdecode, gpspipe -w): the reference a client must match.
struct ReferenceTPV: Equatable, CustomStringConvertible {
    var time: Date?
    var mode: Int
    var latitude: Double?
    var longitude: Double?

    /// Reads every TPV line of gpsd JSON output.
    static func parse(_ output: String) throws -> [ReferenceTPV] {
        try output.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("{\"class\":\"TPV\"") else { return nil }
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw HarnessError("not a JSON object: \(line)")
            }
            return ReferenceTPV(
                time: (object["time"] as? String).flatMap(parseTime),
                mode: object["mode"] as? Int ?? 0,
                latitude: object["lat"] as? Double,
                longitude: object["lon"] as? Double)
        }
    }

    /// The TPVs `gpsdecode` prints for `log`.
    static func gpsdecode(_ log: String) throws -> [ReferenceTPV] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("gpsdecode-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        // The tests' gpsd's own gpsdecode: the system's, or GEOTRACK_TEST_GPSD_PREFIX's.
        let gpsdecode = GPSDInstallation.current
        process.executableURL = URL(fileURLWithPath: gpsdecode.path(of: "gpsdecode"))
        process.environment = ProcessInfo.processInfo.environment.merging(gpsdecode.environment) { $1 }
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: log))
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        return try parse(String(decoding: Data(contentsOf: output), as: UTF8.self))
    }

    /// The same fields of a client's fix.
    init(_ fix: Fix) {
        self.init(time: fix.time, mode: fix.mode.rawValue, latitude: fix.latitude, longitude: fix.longitude)
    }

    init(time: Date?, mode: Int, latitude: Double?, longitude: Double?) {
        self.time = time
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Equal up to the printed precision of gpsd's JSON (9 decimals, milliseconds).
    func matches(_ other: ReferenceTPV) -> Bool {
        mode == other.mode && Self.close(time?.timeIntervalSince1970, other.time?.timeIntervalSince1970, 0.0005)
            && Self.close(latitude, other.latitude, 1e-8) && Self.close(longitude, other.longitude, 1e-8)
    }

    var description: String {
        "TPV(\(time.map { "\($0.timeIntervalSince1970)" } ?? "-") mode \(mode) \(latitude.map { "\($0)" } ?? "-"),\(longitude.map { "\($0)" } ?? "-"))"
    }

    private static func close(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): abs(a - b) <= tolerance
        default: false
        }
    }

    private static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

/// The bundled test logs.
enum TestLog {
    static func path(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "nmea", subdirectory: "Logs") else {
            throw HarnessError("test log \(name).nmea is not in the bundle")
        }
        return url.path
    }
}
