import Foundation
import Testing

/// Every ```swift block in LocationKit's DocC catalog, docs/LOCATIONKIT.md and
/// docs/GPSD-CLIENT.md is a whole program that compiles alone against the package's modules
/// (`import GeoTrackKit`, or `GPSD` and `Logging`): Swift 6, strict concurrency, warnings as errors.
@Suite struct DocumentationSnippetTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalog = packageRoot.appendingPathComponent("Sources/LocationKit/LocationKit.docc")

    struct Snippet: CustomTestStringConvertible, Sendable {
        let file: String
        let line: Int
        let code: String
        var testDescription: String { "\(file):\(line)" }
    }

    /// The pages for library users outside the catalog whose swift blocks are whole programs too.
    static let pages = ["docs/LOCATIONKIT.md", "docs/GPSD-CLIENT.md"]

    /// The swift blocks of every article, and of ``pages``, with where each starts.
    static func snippets() throws -> [Snippet] {
        var found: [Snippet] = []
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }.sorted()
            .map { (name: $0, url: catalog.appendingPathComponent($0)) }
            + pages.map { (name: $0, url: packageRoot.appendingPathComponent($0)) }
        for (article, url) in articles {
            let lines = try String(contentsOf: url, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            var start: Int?
            for (index, line) in lines.enumerated() {
                if line.hasPrefix("```swift") {
                    start = index + 1
                } else if line.hasPrefix("```"), let first = start {
                    found.append(Snippet(file: article, line: first, code: lines[first..<index].joined(separator: "\n") + "\n"))
                    start = nil
                }
            }
        }
        return found
    }

    /// The modules `swift build` made (GeoTrackKit and what it re-exports), beside this test bundle.
    static var modules: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundle.appendingPathComponent("Modules").path,
                          bundle.deletingLastPathComponent().appendingPathComponent("Modules").path,
                          packageRoot.appendingPathComponent(".build/debug/Modules").path]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/GeoTrackKit.swiftmodule") } ?? candidates[2]
    }

    @Test("the catalog has the porting article and its snippets")
    func catalogHasSnippets() throws {
        let snippets = try Self.snippets()
        #expect(snippets.filter { $0.file == "PortingACoreLocationApp.md" }.count >= 9)
        #expect(snippets.allSatisfy { $0.code.contains("import GeoTrackKit") || $0.file == "docs/GPSD-CLIENT.md" })
        #expect(Set(snippets.map(\.file)).isSuperset(of: Self.pages))
    }

    /// Each `LocationManager(source: Replay(` call written in `text`, up to its closing parenthesis.
    static func replayManagers(in text: String) -> [Substring] {
        var calls: [Substring] = []
        var rest = text[...]
        while let start = rest.range(of: "LocationManager(source: Replay(") {
            var depth = 0
            var end = start.lowerBound
            for index in rest[start.lowerBound...].indices {
                if rest[index] == "(" { depth += 1 }
                if rest[index] == ")" { depth -= 1 }
                if depth == 0 && rest[index] == ")" { end = index; break }
            }
            calls.append(rest[start.lowerBound...end])
            rest = rest[rest.index(after: end)...]
        }
        return calls
    }

    @Test("every replay manager the documentation builds is given access, or it would wait for a decision nobody is asked for")
    func replaysInTheDocumentationHaveAccess() throws {
        // Without an authorization store of its own, a replay reads the user's decision: on a
        // machine where nobody ran `geotrack auth grant`, a loop over it printed nothing, forever.
        let pages = try FileManager.default.contentsOfDirectory(atPath: Self.catalog.path).filter { $0.hasSuffix(".md") }
            .map { Self.catalog.appendingPathComponent($0) }
            + ["docs/LOCATIONKIT.md", "README.md"].map { Self.packageRoot.appendingPathComponent($0) }
        var calls = 0
        for page in pages {
            for call in Self.replayManagers(in: try String(contentsOf: page, encoding: .utf8)) {
                calls += 1
                #expect(call.contains("authorizationStore:"), "\(page.lastPathComponent): \(call)")
            }
        }
        #expect(calls >= 4)
    }

    @Test("each snippet type-checks alone", arguments: try snippets())
    func compiles(_ snippet: Snippet) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let main = directory.appendingPathComponent("main.swift")
        try snippet.code.write(to: main, atomically: true, encoding: .utf8)
        let swiftc = Process()
        swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swiftc.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors",
                            "-I", Self.modules, "-I", Self.packageRoot.appendingPathComponent("Sources/CGPS").path,
                            "-I", Self.packageRoot.appendingPathComponent("Sources/CExecutors").path,
                            "-I", Self.packageRoot.appendingPathComponent("Sources/CNMEA").path,
                            // One module cache for every snippet: clang locks it, and later snippets reuse it.
                            "-module-cache-path", FileManager.default.temporaryDirectory
                                .appendingPathComponent("geotrack-snippet-module-cache").path,
                            main.path]
        let output = Pipe()
        swiftc.standardOutput = output
        swiftc.standardError = output
        try swiftc.run()
        let diagnostics = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        swiftc.waitUntilExit()
        #expect(swiftc.terminationStatus == 0 && diagnostics.isEmpty,
                "\(snippet.file):\(snippet.line) does not compile:\n\(diagnostics)")
    }
}
