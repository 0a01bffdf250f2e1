import Testing
@testable import NMEA

@Suite("Statistics")
struct StatisticsTests {
    @Test("the description lists the counts that are not zero")
    func description() {
        var statistics = ReplayStatistics()
        statistics.sentences = 12_034
        statistics.badChecksums = 3
        statistics.unknown = 41
        statistics.junkRuns = 2
        #expect(statistics.description == "12,034 sentences, 3 bad checksums, 41 unknown, 2 junk runs")
        #expect(ReplayStatistics().description == "0 sentences")
        statistics = ReplayStatistics()
        statistics.sentences = 1_000_000
        statistics.badChecksums = 1
        statistics.oversized = 2
        #expect(statistics.description == "1,000,000 sentences, 1 bad checksum, 2 oversized")
    }

    @Test("a replay counts what it read and skipped")
    func counts() throws {
        var bytes = Array(log(rmc("113258"), "$PGRMV,-2.5,-1.1,0.3", "$GPRMB,A,0.66,L,003,004", rmc("113259")).utf8)
        bytes += [0xB5, 0x62, 0x01, 0x02, 0x0A]
        bytes += Array((rmc("113300") + "*00\r\n").utf8)
        let result = try replay(bytes)
        #expect(result.statistics.sentences == 5)
        #expect(result.statistics.decoded == 2)
        #expect(result.statistics.proprietary == 1)
        #expect(result.statistics.unknown == 1)
        #expect(result.statistics.badChecksums == 1)
        #expect(result.statistics.junkRuns == 1)
    }
}
