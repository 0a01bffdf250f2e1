import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

extension Monitor {
    /// The file's shape: a version, so a later format can tell old files apart.
    ///
    /// Version 2 writes each date as ISO 8601 with every fractional digit the date holds
    /// (``PersistedDate``), so a date read back equals the one delivered, exactly. Version 1
    /// wrote whole seconds; its files are still read.
    struct File: Codable {
        var version = File.currentVersion
        var records: [Record]

        static let currentVersion = 2
    }

    /// The largest monitor file read.
    static let maximumFileSize = 4 << 20

    /// Takes the name for one monitor: the lock on `NAME.lock` beside `path` (see ``MonitorLock``),
    /// making the folder (0700) when missing.
    static func lock(name: String, path: String, directory: String) throws(LocationError) -> MonitorLock {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .monitorFailed(name: name, path: path, reason: "its folder cannot be made (\(error))")
        }
        let lockPath = directory + "/" + name + ".lock"
        do {
            return try MonitorLock(path: lockPath)
        } catch {
            switch error {
            case .held(let processID):
                throw .monitorInUse(name: name, path: path, processID: processID)
            case .failed(let reason):
                throw .monitorFailed(name: name, path: path, reason: "its lock \(lockPath) cannot be taken (\(reason))")
            }
        }
    }

    /// The records kept in `path`; none when there is no file yet.
    static func load(name: String, path: String) throws(LocationError) -> [String: Record] {
        let text: String
        switch AuthorizationStore.readSmallFile(path, maximumSize: maximumFileSize, followingLinks: false) {
        case .missing:
            return [:]
        case .unreadable(let reason):
            throw .monitorFailed(name: name, path: path, reason: "it cannot be read (\(reason)); remove it to start afresh")
        case .text(let content, _):
            text = content
        }
        let file: File
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .custom { decoder in
                let container = try decoder.singleValueContainer()
                let text = try container.decode(String.self)
                guard let date = PersistedDate.date(from: text) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
                }
                return date
            }
            file = try decoder.decode(File.self, from: Data(text.utf8))
        } catch {
            throw .monitorFailed(name: name, path: path, reason: "it does not hold a monitor; remove it to start afresh")
        }
        guard file.version <= File.currentVersion else {
            throw .monitorFailed(name: name, path: path, reason: "it was written by a newer GeoTrack (format \(file.version))")
        }
        var records: [String: Record] = [:]
        for record in file.records {
            let condition = record.condition
            // Decoding does not check a coordinate: check it as the initializer would.
            guard Coordinate(latitude: condition.center.latitude, longitude: condition.center.longitude) != nil,
                  condition.radius.isFinite, condition.radius > 0, condition.radius <= maximumRadius,
                  !record.lastEvent.identifier.isEmpty else {
                throw .monitorFailed(name: name, path: path,
                                     reason: "condition '\(record.lastEvent.identifier)' is not a valid circle; remove the file to start afresh")
            }
            records[record.lastEvent.identifier] = record
        }
        return records
    }

    /// Saves `records` atomically; the directory is made (0700) when missing.
    func save(_ records: [String: Record]) throws(LocationError) {
        let file = File(records: records.keys.sorted().compactMap { records[$0] })
        let text: String
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(PersistedDate.text(for: date))
            }
            text = String(decoding: try encoder.encode(file), as: UTF8.self) + "\n"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .monitorFailed(name: name, path: path, reason: "it cannot be written (\(error))")
        }
        if let reason = StateFile.writeAtomically(text, to: path, directory: directory) {
            throw .monitorFailed(name: name, path: path, reason: "it cannot be written (\(reason))")
        }
    }
}

/// How a monitor file writes a date: ISO 8601 in UTC, with exactly the fractional digits needed
/// to give back the same `Date` (`2025-09-12T09:00:00.25Z`), so nothing a program was told is
/// changed by a relaunch. Whole seconds print as before (`2025-09-12T09:00:00Z`).
enum PersistedDate {
    /// The text for `date`.
    static func text(for date: Date) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        let whole = seconds.rounded(.down)
        // Exact: a double minus its floor is representable.
        let fraction = seconds - whole
        let base = Date(timeIntervalSinceReferenceDate: whole).formatted(.iso8601)
        guard fraction > 0, base.hasSuffix("Z") else { return base }
        return base.dropLast() + decimals(of: fraction) + "Z"
    }

    /// The date `text` names: this format, or version 1's whole seconds.
    static func date(from text: String) -> Date? {
        var base = text
        var fraction = 0.0
        if text.hasSuffix("Z"), let dot = text.lastIndex(of: ".") {
            guard let value = Double("0" + text[dot..<text.index(before: text.endIndex)]), value < 1 else { return nil }
            fraction = value
            base = text[..<dot] + "Z"
        }
        guard let whole = try? Date.ISO8601FormatStyle().parse(base) else { return nil }
        // Whole seconds plus the fraction written from the same date: the sum is that date exactly.
        return Date(timeIntervalSinceReferenceDate: whole.timeIntervalSinceReferenceDate + fraction)
    }

    /// `fraction` (in 0..<1) as `.ddd`, with the shortest digits that read back as the same double.
    static func decimals(of fraction: Double) -> String {
        let shortest = fraction.description
        guard let exponentMark = shortest.firstIndex(of: "e"),
              let exponent = Int(shortest[shortest.index(after: exponentMark)...]), exponent < 0 else {
            // "0.25" -> ".25"
            return String(shortest.drop { $0 != "." })
        }
        // "2.5e-07" -> ".00000025"
        let digits = shortest[..<exponentMark].filter { $0 != "." }
        return "." + String(repeating: "0", count: -exponent - 1) + digits
    }
}
