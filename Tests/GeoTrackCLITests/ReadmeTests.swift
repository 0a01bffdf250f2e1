import Foundation
import Testing
@testable import GeoTrackCLI

/// The README says only what the tool does: every option it names is one the tool accepts, and
/// its exit-status table is the tool's.
@Suite("The README matches the tool")
struct ReadmeTests {
    static let readme = (try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    @Test("every --option the README names for geotrack appears in the help of geotrack or one of its commands")
    func options() throws {
        #expect(!Self.readme.isEmpty)
        let home = try TestSupport.temporaryDirectory()
        var help = try TestSupport.geotrack(["--help"], home: home).stdout
        for command in ["watch", "replay", "sky", "stats", "devices", "auth", "auth status", "auth grant", "auth deny", "auth reset",
                        "fleet", "outbox", "outbox list", "outbox flush", "outbox clear"] {
            help += try TestSupport.geotrack(["help"] + command.split(separator: " ").map(String.init), home: home).stdout
        }
        // Lines about geotrack, not about the conformance tool or swift's own commands.
        let lines = Self.readme.split(separator: "\n").filter { line in
            (line.contains("geotrack") || line.hasPrefix("`--")) && !line.contains("nmea-conformance") && !line.contains("swift ")
        }
        let options = Set(lines.flatMap { line in
            line.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.output) }
        })
        #expect(options.count >= 15, "\(options.sorted())")
        for option in options.sorted() where !["--help", "--version", "--generate-completion-script"].contains(option) {
            #expect(help.contains(option), "the README names \(option), which no help lists")
        }
    }

    @Test("every heading appears once: no section is written twice")
    func headingsOnce() {
        var fenced = false
        var seen: [String: Int] = [:]
        for line in Self.readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            seen[String(line), default: 0] += 1
        }
        #expect(seen.count >= 10)
        #expect(seen.filter { $0.value > 1 }.isEmpty, "\(seen.filter { $0.value > 1 })")
    }

    @Test("the exit-status table lists exactly the statuses the tool uses")
    func exitStatuses() {
        let section = Self.readme.components(separatedBy: "### Exit status").dropFirst().first?
            .components(separatedBy: "\n##").first ?? ""
        let rows = section.split(separator: "\n").compactMap { line -> Int32? in
            guard let match = line.firstMatch(of: /^\| (\d+) \|/) else { return nil }
            return Int32(match.output.1)
        }
        #expect(Set(rows) == Set(ExitStatus.allCases.map(\.rawValue)), "README: \(rows.sorted())")
        // The discussion --help prints names each of them too.
        let discussion = GeoTrack.configuration.discussion
        for status in ExitStatus.allCases where status != .failure {
            #expect(discussion.contains("\(status.rawValue) "), "--help does not mention exit status \(status.rawValue)")
        }
    }
}
