import Foundation
import GeoTrackTesting
import NMEA
import Synchronization
import Testing
@testable import TPVJSONBulk

/// replay --json in chunks on worker threads: every byte and every count must be what one
/// decoder reading the file whole gives, wherever the chunks are cut.
@Suite("Parallel TPV JSON")
struct ParallelTPVJSONTests {
    /// The test logs one after another: receivers of every kind, `# Date:` headers between them.
    static func joinedLogs(times: Int = 1) throws -> [UInt8] {
        let directory = URL(fileURLWithPath: try logPath("garmin15x.nmea")).deletingLastPathComponent().path
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".nmea") || $0.hasSuffix(".raw.log") }.sorted()
        #expect(names.count >= 10)
        var bytes: [UInt8] = []
        for _ in 0..<times {
            for name in names { bytes += try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))) }
        }
        return bytes
    }

    /// One decoder, the whole file: the reference.
    static func whole(_ path: String) throws -> (bytes: [UInt8], fixes: Int, statistics: ReplayStatistics) {
        let reader = try ReplayReader(path: path)
        let collected = Mutex<[UInt8]>([])
        let result = try TPVJSONPipeline.run(reader, threaded: false) { chunk in
            collected.withLock { $0.append(contentsOf: chunk) }
            return true
        }
        return (collected.withLock { $0 }, result.fixes, reader.statistics)
    }

    /// Checkpoints close to a chunk's start, so that chunks of a few hundred bytes are taken
    /// from the workers too (with the default ones, chunks under 2 KiB never are).
    static let nearCheckpoints = [40, 120, 300, 700]

    static func chunked(_ path: String, chunkSize: Int, workers: Int = 2,
                        checkpoints: [Int] = ParallelTPVJSON.checkpointDistances,
                        failAfter writes: Int = .max) throws -> (bytes: [UInt8], outcome: ParallelTPVJSON.Outcome?) {
        let collected = Mutex<(bytes: [UInt8], writes: Int)>(([], 0))
        let outcome = try ParallelTPVJSON.run(path: path, chunkSize: chunkSize, workers: workers,
                                              checkpoints: checkpoints) { chunk in
            collected.withLock { state in
                guard state.writes < writes else { return false }
                state.writes += 1
                state.bytes.append(contentsOf: chunk)
                return true
            }
        }
        return (collected.withLock { $0.bytes }, outcome)
    }

    @Test("the test logs joined, cut into chunks of any size, give the bytes and counts of one decoder",
          // Four workers on small chunks: the taking of finished chunks passes between more
          // threads than there are cores, thousands of times.
          arguments: [(97, 2), (509, 4), (1000, 2), (4096, 1), (4096, 2), (65_536, 2), (ParallelTPVJSON.defaultChunkSize, 3)])
    func sameAsWhole(chunkSize: Int, workers: Int) throws {
        // Twice, or as often as it takes to make the two chunks the parallel path needs at least.
        let times = max(2, 2 * chunkSize / (try Self.joinedLogs()).count + 1)
        let path = try temporaryFile(try Self.joinedLogs(times: times))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try Self.whole(path)
        #expect(reference.fixes > 1000)
        for checkpoints in [ParallelTPVJSON.checkpointDistances, Self.nearCheckpoints] {
            let (bytes, outcome) = try Self.chunked(path, chunkSize: chunkSize, workers: workers, checkpoints: checkpoints)
            let result = try #require(outcome)
            #expect(result.written)
            #expect(result.fixes == reference.fixes)
            #expect(result.statistics == reference.statistics)
            #expect(difference(bytes, reference.bytes) == "none", "checkpoints \(checkpoints)")
            // Chunks that reach a few checkpoints are taken from the workers.
            if chunkSize >= 65_536 || (chunkSize >= 1000 && checkpoints == Self.nearCheckpoints) {
                #expect(result.adopted > 0, "checkpoints \(checkpoints)")
            }
        }
    }

    @Test("a long log is nearly all taken from the workers: only chunks near a receiver met for the first time are decoded again")
    func mostChunksAdopted() throws {
        let logs = try Self.joinedLogs()
        var decodedAgain: [Int: Int] = [:]
        for times in [8, 16] {
            let path = try temporaryFile(try Self.joinedLogs(times: times))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (bytes, outcome) = try Self.chunked(path, chunkSize: ParallelTPVJSON.defaultChunkSize)
            let result = try #require(outcome)
            #expect(difference(bytes, try Self.whole(path).bytes) == "none")
            #expect(result.adopted + result.decodedAgain
                    == (logs.count * times + ParallelTPVJSON.defaultChunkSize - 1) / ParallelTPVJSON.defaultChunkSize)
            decodedAgain[times] = result.decodedAgain
        }
        // The first pass over the logs teaches the decoder each receiver's habits (the end of
        // its cycle, its constellations, that a sounder's DBT makes cycles continue), which the
        // seeds lack until then; after it, none: twice the passes, no more chunks decoded again.
        #expect(decodedAgain[16] == decodedAgain[8], "\(decodedAgain)")
        let firstPass = (logs.count + ParallelTPVJSON.defaultChunkSize - 1) / ParallelTPVJSON.defaultChunkSize
        #expect((decodedAgain[8] ?? .max) <= firstPass + 2, "\(decodedAgain)")
    }

    @Test("chunks cut inside CR-only lines, long lines, junk, comments and sentences without checksums")
    func awkwardCuts() throws {
        var text = "# Date: 2021-03-04\r"
        for second in 0..<400 {
            let time = String(format: "1200%02d.00", second % 60)
            text += "$GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,\r"
            if second % 7 == 0 { text += "$GPTXT," + String(repeating: "x", count: 300) + "\n" + String(repeating: "y", count: 90) + "\n" }
            if second % 11 == 0 { text += "\u{01}\u{02}$GPRMC,cut\r\n# a comment\n" }
            if second == 200 { text += "# Date: 2022-05-06\n" }
            text += SyntheticLog.checksummed("$GPRMC,\(time),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W") + "\r\n"
            text += SyntheticLog.checksummed("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1") + "\n"
        }
        let path = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try Self.whole(path)
        #expect(reference.fixes > 300)
        #expect(reference.statistics.missingChecksums > 0)
        #expect(reference.statistics.oversized > 0)
        #expect(reference.statistics.junkRuns > 0)
        var adopted = 0
        for chunkSize in [61, 200, 257, 1024, 2500, 8192] {
            for checkpoints in [ParallelTPVJSON.checkpointDistances, Self.nearCheckpoints] {
                let (bytes, outcome) = try Self.chunked(path, chunkSize: chunkSize, checkpoints: checkpoints)
                let result = try #require(outcome)
                adopted += result.adopted
                #expect(result.statistics == reference.statistics, "chunks of \(chunkSize), checkpoints \(checkpoints)")
                #expect(difference(bytes, reference.bytes) == "none", "chunks of \(chunkSize), checkpoints \(checkpoints)")
            }
        }
        #expect(adopted > 0)
    }

    @Test("a write that fails stops the run, reported as not written, with no worker left behind")
    func failedWrite() throws {
        let path = try temporaryFile(try Self.joinedLogs())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (bytes, outcome) = try Self.chunked(path, chunkSize: 8192, failAfter: 1)
        let result = try #require(outcome)
        #expect(!result.written)
        #expect(!bytes.isEmpty)
        #expect(bytes.count < (try Self.whole(path)).bytes.count)
    }

    @Test("what cannot be read at offsets, or is not NMEA, or is small, is left to the single decoder")
    func declines() throws {
        let nmea = try temporaryFile(try Self.joinedLogs())
        defer { try? FileManager.default.removeItem(atPath: nmea) }
        #expect(try Self.chunked(nmea, chunkSize: 1 << 30).outcome == nil)
        #expect(try Self.chunked("-", chunkSize: 4096).outcome == nil)
        #expect(try Self.chunked("/nonexistent/log.nmea", chunkSize: 4096).outcome == nil)
        let gpx = try temporaryFile("  \n<?xml version=\"1.0\"?><gpx>" + String(repeating: " ", count: 20_000) + "</gpx>", suffix: ".gpx")
        defer { try? FileManager.default.removeItem(atPath: gpx) }
        #expect(try Self.chunked(gpx, chunkSize: 4096).outcome == nil)
    }

    @Test("every count of the statistics is added up, so a log taken in chunks counts as one read whole")
    func sumCoversEveryCount() {
        func labels(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }
        #expect(labels(ReplayStatistics()) == ReplayStatistics.combinedProperties)
    }

    @Test("a boat's instruments: gpsd's TPV lines, whole and in chunks of any size")
    func marineLog() throws {
        let path = try logPath("marine-mix.nmea")
        // gpsd's TPV lines (gpsdecode), with the device named as the replay names it.
        let gpsd = try String(contentsOfFile: try logPath("marine-mix.tpv.jsonl"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).filter { $0.contains(#""class":"TPV""#) }
            .map { $0.replacingOccurrences(of: #""device":"stdin""#, with: #""device":"\#(path)""#) }
        #expect(gpsd.count > 40)
        let expected = gpsd.joined(separator: "\n") + "\n"
        let whole = try Self.whole(path)
        #expect(String(decoding: whole.bytes, as: UTF8.self) == expected)
        // Chunks of a log this short (4 KB): any larger and the run declines to split it.
        for chunkSize in [97, 509, 1500] {
            let (bytes, _) = try Self.chunked(path, chunkSize: chunkSize, checkpoints: Self.nearCheckpoints)
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "chunks of \(chunkSize)")
        }
    }
}
