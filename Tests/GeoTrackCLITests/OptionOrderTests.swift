import Foundation
import Testing

/// `help watch` and `help replay` show the basic options first and the publishing ones
/// last, before only --config, --version and --help.
@Suite("the order of options in help")
struct OptionOrderTests {
    @Test("basic options come before the publishing ones, in --help and in the man page's order",
          arguments: [("watch", ["--gpsd", "--device", "--no-retry", "--json", "--gpx", "--count", "--once", "--timeout", "--format", "--units"]),
                      ("replay", ["<file>", "--realtime", "--speed", "--json", "--gpx", "--count", "--once", "--timeout", "--format", "--units"])])
    func basicFirst(command: String, basic: [String]) async throws {
        let home = try TestSupport.temporaryDirectory()
        let help = try await TestSupport.geotrack(["help", command], home: home, environment: ["COLUMNS": "100"])
        #expect(help.status == 0, "\(help.stderr)")
        let lines = help.stdout.split(separator: "\n").map(String.init)
        func index(_ option: String) -> Int? {
            lines.firstIndex { $0.hasPrefix("  \(option) ") || $0 == "  \(option)" }
        }
        let publishing = lines.indices.filter { lines[$0].hasPrefix("  --publish") }
        #expect(publishing.count == 11, "\(help.stdout)")
        let firstPublishing = try #require(publishing.first)
        for option in basic {
            let at = try #require(index(option), "\(option) is not in 'help \(command)'")
            #expect(at < firstPublishing, "\(option) comes after the publishing options in 'help \(command)'")
        }
        // Under their own heading, after the others; only the general options follow them.
        #expect(lines[firstPublishing - 1] == "PUBLISHING:")
        let lastPublishing = try #require(publishing.last)
        let rest = lines[(lastPublishing + 1)...].filter { $0.hasPrefix("  -") }
        #expect(rest.map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["--config", "--version", "-h,"], "\(rest)")

        // The man page lists the options as declared: the same order.
        let dump = try await TestSupport.geotrack(["--experimental-dump-help"], home: home)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let tool = try #require(root["command"] as? [String: Any])
        let subcommands = try #require(tool["subcommands"] as? [[String: Any]])
        let entry = try #require(subcommands.first { $0["commandName"] as? String == command })
        let arguments = try #require(entry["arguments"] as? [[String: Any]])
        let names = arguments.compactMap { ($0["preferredName"] as? [String: Any])?["name"] as? String }
        let publish = names.indices.filter { names[$0].hasPrefix("publish") }
        let others = names.indices.filter { !names[$0].hasPrefix("publish") && !["config", "help", "version"].contains(names[$0]) }
        #expect(publish.count == 11 && others.allSatisfy { $0 < (publish.first ?? 0) }, "\(names)")
    }
}
