import Foundation
import Testing

/// Every public declaration of the package's modules has a `///` summary, as the team's guide
/// asks: DocC shows an undocumented symbol as a bare signature, and `make docs` does not catch
/// a missing summary (only a broken link or an undocumented parameter).
@Suite struct PublicDocumentationTests {
    static let sources = DocumentationSnippetTests.packageRoot.appendingPathComponent("Sources")

    /// The lines of `lines` that declare something `public` or `open` (not an extension or an
    /// import) with neither a `///` line nor the end of a `/** */` block right above them
    /// (attributes between are allowed), as 1-based line numbers.
    static func undocumented(_ lines: [Substring]) throws -> [Int] {
        let declaration = try Regex(#"^\s*(public|open)\s+(?!extension\b|import\b)"#)
        var found: [Int] = []
        for (index, line) in lines.enumerated() where line.contains(declaration) {
            var above = index - 1
            while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
            let previous = above >= 0 ? lines[above].trimmingCharacters(in: .whitespaces) : ""
            if !previous.hasPrefix("///") && !previous.hasSuffix("*/") { found.append(index + 1) }
        }
        return found
    }

    @Test("the scan tells a documented declaration from an undocumented one")
    func scanTellsThemApart() throws {
        let sample = """
            /// Documented.
            public struct A: CustomStringConvertible {
                /// Documented, with an attribute between.
                @inlinable
                public var x: Int { 1 }
                public var description: String { "a" }
                // A plain comment is no summary.
                public func f() {}
            }
            public extension A {}
            """
        #expect(try Self.undocumented(sample.split(separator: "\n", omittingEmptySubsequences: false)) == [6, 8])
    }

    @Test("every public symbol has a /// summary")
    func everyPublicSymbolIsDocumented() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path)?.allObjects as? [String])
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 100, "the package's Swift sources are under \(Self.sources.path)")
        for file in files {
            let lines = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for line in try Self.undocumented(lines) {
                Issue.record("Sources/\(file):\(line) has no /// summary: \(lines[line - 1].trimmingCharacters(in: .whitespaces))")
            }
        }
    }
}
