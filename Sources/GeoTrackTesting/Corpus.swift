import Foundation

/// The NMEA corpus the repository carries in `Tests/Fixtures/nmea-corpus`: 30 logs from real
/// receivers with gpsd's own decoding of each (see the README there for their origin).
///
/// Tests read the corpus through this type only, so that no test reaches outside the
/// repository, and a missing file fails its test instead of skipping it.
public enum Corpus {
    /// The folder that holds the logs.
    public static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GeoTrackTesting
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // the package
        .appendingPathComponent("Tests/Fixtures/nmea-corpus")

    /// What `url(_:)` throws when the repository lacks a file it should carry.
    public struct MissingFile: Error, CustomStringConvertible {
        /// The path that does not exist.
        public let path: String

        /// Says which file is missing and where it comes from.
        public var description: String {
            "the corpus file \(path) is missing: the repository carries it (Tests/Fixtures/nmea-corpus); restore it with git checkout"
        }
    }

    /// The path of one corpus file, such as `haicom-305N.nmea`; throws when the file is missing.
    public static func url(_ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw MissingFile(path: url.path) }
        return url
    }

    /// The path of one corpus file as a string; throws when the file is missing.
    public static func path(_ name: String) throws -> String {
        try url(name).path
    }

    /// The receivers' names (`NAME` of `NAME.nmea`), sorted; throws when the folder is missing or
    /// holds fewer than the 30 logs it should.
    public static func names() throws -> [String] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let names = files.filter { $0.hasSuffix(".nmea") }.map { String($0.dropLast(".nmea".count)) }.sorted()
        guard names.count >= 30 else { throw MissingFile(path: folder.path + " (\(names.count) of 30 logs)") }
        return names
    }
}
