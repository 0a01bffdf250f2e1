import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

extension Monitor {
    /// The file's shape: a version, so a later format can tell old files apart.
    struct File: Codable {
        var version = 1
        var records: [Record]
    }

    /// The largest monitor file read.
    static let maximumFileSize = 4 << 20

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
            decoder.dateDecodingStrategy = .iso8601
            file = try decoder.decode(File.self, from: Data(text.utf8))
        } catch {
            throw .monitorFailed(name: name, path: path, reason: "it does not hold a monitor; remove it to start afresh")
        }
        guard file.version == 1 else {
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
            encoder.dateEncodingStrategy = .iso8601
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
