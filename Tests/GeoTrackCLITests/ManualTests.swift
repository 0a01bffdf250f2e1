import Foundation
import Testing
@testable import GeoTrackCLI

/// The man page `make install` generates (swift-argument-parser's generate-manual, from
/// `geotrack --experimental-dump-help`) renders without a warning and lists the exit statuses.
@Suite("the man page")
struct ManualTests {
    /// Every abstract and discussion in the help geotrack dumps for generate-manual.
    static func helpTexts() async throws -> [(key: String, text: String)] {
        let dump = try await TestSupport.geotrack(["--experimental-dump-help"], home: try TestSupport.temporaryDirectory())
        #expect(dump.status == 0, "\(dump.stderr)")
        var texts: [(String, String)] = []
        func visit(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, child) in object {
                    if ["abstract", "discussion"].contains(key), let text = child as? String { texts.append((key, text)) }
                    visit(child)
                }
            } else if let array = value as? [Any] {
                array.forEach(visit)
            }
        }
        visit(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)))
        return texts
    }

    @Test("no help text has a line mdoc warns about or joins to the one before, or a character generate-manual drops")
    func helpTextsSuitMdoc() async throws {
        let texts = try await Self.helpTexts()
        #expect(texts.count > 50, "the dump lists every command's and option's help")
        for (key, text) in texts {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            // A blank line is groff's "mdoc warning: Empty input line".
            let blank = lines.contains { line in line.allSatisfy(\.isWhitespace) }
            #expect(!blank, "\(key) has a blank line: \(text)")
            // A line after the first that starts in column 0 is filled into the one before it
            // (and one that starts with '.' or '\'' would be read as a macro).
            let joined = lines.dropFirst().contains { line in line.first != " " }
            #expect(!joined, "\(key) has a line that would join the one before: \(text)")
        }
        // generate-manual keeps ASCII only: 51°30' came out as 5130'.
        for (key, text) in texts {
            let ascii = text.unicodeScalars.allSatisfy { scalar in scalar.isASCII }
            #expect(ascii, "\(key) is not ASCII, and loses characters in the man page: \(text)")
        }
    }

    @Test("--help and the man page list every exit status with what it means")
    func exitStatuses() throws {
        let discussion = GeoTrack.configuration.discussion
        for status in ExitStatus.allCases {
            let code = String(status.rawValue)
            let line = "\n    " + code + String(repeating: " ", count: 4 - code.count) + status.summary
            #expect(discussion.contains(line), "\(status)")
        }
    }

    @Test("the generated page renders without a warning from groff or man, and has the exit statuses")
    func generatedPage() async throws {
        // generate-manual is swift-argument-parser's tool, built beside geotrack by `make test`
        // (swift build --product generate-manual); groff and man come with make deps.
        let tool = URL(fileURLWithPath: TestSupport.binary).deletingLastPathComponent().appendingPathComponent("generate-manual").path
        try #require(TestSupport.installed(tool), "\(tool) is missing: run `swift build --product generate-manual`")
        for program in ["/usr/bin/groff", "/usr/bin/man"] {
            try #require(TestSupport.installed(program), "\(program) is missing: make deps installs it")
        }
        let directory = try TestSupport.temporaryDirectory()
        let generated = try await TestSupport.run(tool, [TestSupport.binary, "--date", "2026-01-01", "-o", directory.path])
        #expect(generated.status == 0, "\(generated.stderr)")
        let page = directory.appendingPathComponent("geotrack.1").path
        let source = try String(contentsOfFile: page, encoding: .utf8)

        let groff = try await TestSupport.run("/usr/bin/groff", ["-mandoc", "-ww", "-z", page])
        #expect(groff.status == 0 && groff.stderr.isEmpty, "groff: \(groff.stderr)")
        let man = try await TestSupport.run("/usr/bin/man", ["-l", page], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(man.status == 0 && man.stderr.isEmpty, "man: \(man.stderr)")
        #expect(man.stdout.contains("DESCRIPTION"))
        for status in ExitStatus.allCases {
            #expect(source.contains("\(status.rawValue)") && source.contains(status.summary), "the page lacks exit status \(status.rawValue)")
            #expect(man.stdout.contains(status.summary), "man does not show exit status \(status.rawValue)")
        }
    }
}
