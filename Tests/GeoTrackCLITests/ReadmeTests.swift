import Foundation
import Testing
@testable import GeoTrackCLI

/// The README and the pages in docs/ say only what the tool does: every option they name is one
/// the tool accepts, the README's exit-status table is the tool's, and the README stays a page for
/// users that links every other one.
@Suite("The README matches the tool")
struct ReadmeTests {
    static let readme = page("README.md")

    /// The pages beside the README, by path from the package root.
    static let docs: [String] = {
        let folder = TestSupport.packageRoot.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    /// The text of a page, or "" when it cannot be read (which the tests then report).
    static func page(_ path: String) -> String {
        (try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// The help of geotrack and of each of its commands, joined.
    static func help() async throws -> String {
        let home = try TestSupport.temporaryDirectory()
        var help = try await TestSupport.geotrack(["--help"], home: home).stdout
        for command in ["watch", "replay", "sky", "stats", "devices", "auth", "auth status", "auth grant", "auth deny", "auth reset",
                        "fleet", "outbox", "outbox list", "outbox flush", "outbox clear", "serve"] {
            help += try await TestSupport.geotrack(["help"] + command.split(separator: " ").map(String.init), home: home).stdout
        }
        return help
    }

    @Test("every --option the README names for geotrack appears in the help of geotrack or one of its commands")
    func options() async throws {
        #expect(!Self.readme.isEmpty)
        let help = try await Self.help()
        let options = Self.options(in: Self.readme)
        #expect(options.count >= 15, "\(options.sorted())")
        for option in options.sorted() where !["--help", "--version", "--generate-completion-script"].contains(option) {
            #expect(help.contains(option), "the README names \(option), which no help lists")
        }
    }

    @Test("every --option a page in docs/ names for geotrack appears in some help")
    func docsOptions() async throws {
        #expect(Self.docs.count >= 6, "\(Self.docs)")
        let help = try await Self.help()
        for path in Self.docs {
            let text = Self.page(path)
            #expect(!text.isEmpty, "\(path) is empty or unreadable")
            for option in Self.options(in: text).sorted() where !["--help", "--version", "--generate-completion-script"].contains(option) {
                #expect(help.contains(option), "\(path) names \(option), which no help lists")
            }
        }
    }

    /// The options named on lines about geotrack.
    static func options(in text: String) -> Set<String> {
        // Lines about geotrack, not about the conformance tool or swift's own commands.
        let lines = text.split(separator: "\n").filter { line in
            (line.contains("geotrack") || line.hasPrefix("`--")) && !line.contains("nmea-conformance") && !line.contains("swift ")
        }
        return Set(lines.flatMap { line in
            line.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.output) }
        })
    }

    /// How many times each heading outside code blocks appears in `text`.
    static func headings(in text: String) -> [String: Int] {
        var fenced = false
        var seen: [String: Int] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            seen[String(line), default: 0] += 1
        }
        return seen
    }

    @Test("every heading appears once: no section is written twice")
    func headingsOnce() {
        let seen = Self.headings(in: Self.readme)
        #expect(seen.count >= 10)
        #expect(seen.filter { $0.value > 1 }.isEmpty, "\(seen.filter { $0.value > 1 })")
        for path in Self.docs {
            let page = Self.headings(in: Self.page(path))
            #expect(!page.isEmpty, "\(path) has no heading")
            #expect(page.filter { $0.value > 1 }.isEmpty, "\(path): \(page.filter { $0.value > 1 })")
        }
    }

    @Test("the README is a page for users: at most 400 lines, and `make demo` in its first 40")
    func firstScreen() {
        let lines = Self.readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 40 && lines.count <= 400, "\(lines.count) lines")
        #expect(lines.prefix(40).contains { $0.contains("make demo") })
    }

    @Test("the README links every page in docs/, and every link between the pages reaches a file and heading that exist")
    func links() {
        for path in Self.docs {
            #expect(Self.readme.contains("](\(path))"), "the README does not link \(path)")
        }
        for path in ["README.md"] + Self.docs {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().relativePath
            for match in Self.page(path).matches(of: /\]\(([^)#:\s]+)(?:#([^)\s]+))?\)/) {
                let target = folder == "." ? String(match.output.1) : folder + "/" + match.output.1
                let url = TestSupport.packageRoot.appendingPathComponent(target).standardized
                #expect(FileManager.default.fileExists(atPath: url.path), "\(path) links \(match.output.1), which does not exist")
                guard let anchor = match.output.2 else { continue }
                let linked = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
                #expect(Self.headings(in: linked).keys.map(Self.slug).contains(String(anchor)),
                        "\(path) links \(match.output.1)#\(anchor), which has no such heading")
            }
        }
    }

    /// The anchor GitHub gives a heading line: lower case, spaces as hyphens, other punctuation dropped.
    static func slug(_ heading: String) -> String {
        let title = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
        return String(title.compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }

    @Test("a password or TLS file that cannot be read exits with a status whose README row and --help line say so")
    func unreadablePublishingFiles() async throws {
        let home = try TestSupport.temporaryDirectory()
        let missing = home.appendingPathComponent("none").path
        let base = ["replay", try PublishTests.log, "--publish", "mqtts://ann@127.0.0.1:1", "--publish-wait", "0"]
        var statuses = Set<Int32>()
        for option in ["--publish-password-file", "--publish-ca"] {
            let run = try await TestSupport.geotrack(base + [option, missing], home: home)
            #expect(run.stderr.contains("\(option) \(missing): cannot read it"), "\(run.stderr)")
            statuses.insert(run.status)
        }
        for status in statuses {
            // A script that reads the status looks it up in the README's table and in --help.
            let row = Self.readme.split(separator: "\n").first { $0.hasPrefix("| \(status) |") }.map(String.init) ?? ""
            #expect(row.contains("--publish-password-file") && row.contains("--publish-ca"), "README row for \(status): \(row)")
            let summary = ExitStatus(rawValue: status)?.summary ?? ""
            #expect(summary.contains("password") && summary.contains("TLS"), "--help for \(status): \(summary)")
        }
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
