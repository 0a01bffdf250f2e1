import NMEA
import Synchronization
import Testing
import TPVJSONBulk

/// replay --json's bulk path: the JSON written on a second thread, or on the calling thread
/// where no thread can be made, must be the same bytes.
@Suite("TPV JSON pipeline")
struct TPVJSONPipelineTests {
    private static func output(_ name: String, threaded: Bool, failAfter writes: Int = .max) throws -> (fixes: Int, written: Bool, bytes: [UInt8]) {
        let reader = try ReplayReader(path: try logPath(name))
        let collected = Mutex<(bytes: [UInt8], writes: Int)>(([], 0))
        let result = try TPVJSONPipeline.run(reader, threaded: threaded) { chunk in
            collected.withLock { state in
                guard state.writes < writes else { return false }
                state.writes += 1
                state.bytes.append(contentsOf: chunk)
                return true
            }
        }
        return (result.fixes, result.written, collected.withLock { $0.bytes })
    }

    @Test("without a thread of its own, the same TPV lines come out", arguments: ["gp-320fw-2019-03-28.nmea", "garmin15x.nmea"])
    func inlineMatchesThreaded(_ name: String) throws {
        let threaded = try Self.output(name, threaded: true)
        let inline = try Self.output(name, threaded: false)
        #expect(threaded.fixes > 0)
        #expect(threaded.written && inline.written)
        #expect(inline.fixes == threaded.fixes)
        #expect(inline.bytes == threaded.bytes)
        let lines = inline.bytes.split(separator: 0x0A)
        #expect(lines.count == inline.fixes)
        #expect(lines.allSatisfy { $0.starts(with: Array(#"{"class":"TPV""#.utf8)) })
    }

    @Test("a write that fails ends either path, reported as not written")
    func failedWrite() throws {
        // A zero-byte budget: the first write already fails.
        let threaded = try Self.output("gp-320fw-2019-03-28.nmea", threaded: true, failAfter: 0)
        let inline = try Self.output("gp-320fw-2019-03-28.nmea", threaded: false, failAfter: 0)
        #expect(!threaded.written && !inline.written)
        #expect(threaded.bytes.isEmpty && inline.bytes.isEmpty)
    }
}
