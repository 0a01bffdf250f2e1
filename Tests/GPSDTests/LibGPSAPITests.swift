import CGPS
import Foundation
import GeoTrackTesting
import Testing
@testable import GPSD

/// GeoTrack uses libgps only through what gps.h declares, so that a gpsd release may change
/// anything else; and it runs with the libgps whose gps.h it was compiled with.
@Suite struct LibGPSAPITests {
    /// The gps.h the tests' build compiled against: the system's, or the one under
    /// GEOTRACK_TEST_GPSD_PREFIX (make test-gpsd-versions builds with GPSD_PREFIX and sets it).
    static var header: String {
        GPSDInstallation.current.prefix.map { "\($0)/include/gps.h" } ?? "/usr/include/gps.h"
    }

    /// `text` without its C comments, so a word in a comment is neither a call nor a declaration.
    static func withoutComments(_ text: String) throws -> String {
        let comments = try Regex(#"/\*[\s\S]*?\*/|//[^\n]*"#)
        return text.replacing(comments, with: " ")
    }

    /// Every name CGPS calls, or looks up by name with dlsym().
    static func shimCalls() throws -> Set<String> {
        let shim = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/CGPS/CGPS.c").standardizedFileURL.path
        let code = try withoutComments(String(contentsOfFile: shim, encoding: .utf8))
        var names = Set(code.matches(of: try Regex(#"\b([A-Za-z_][A-Za-z0-9_]*)\s*\("#)).compactMap {
            $0.output[1].substring.map(String.init)
        })
        names.formUnion(code.matches(of: try Regex(#"dlsym\s*\([^,]*,\s*"([^"]*)""#)).compactMap {
            $0.output[1].substring.map(String.init)
        })
        // Weak declarations name the symbol too.
        names.formUnion(code.matches(of: try Regex(#"#pragma\s+weak\s+([A-Za-z_][A-Za-z0-9_]*)"#)).compactMap {
            $0.output[1].substring.map(String.init)
        })
        return names
    }

    /// The functions the libgps GeoTrack loads defines (its dynamic symbol table, by nm).
    static func libgpsFunctions() throws -> (path: String, names: Set<String>) {
        let library = try LibGPS.shared.get()
        let unpack = UInt(bitPattern: library.unpack)
        // The file mapped where gps_unpack's code is (/proc/self/maps: "START-END PERMS OFFSET DEV INODE PATH").
        // Read to its end: procfs files have no size for Foundation to go by.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps"))
        defer { try? handle.close() }
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        let mapped = maps.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6 else { return nil }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard bounds.count == 2, bounds[0] <= unpack, unpack < bounds[1] else { return nil }
            return fields[5...].joined(separator: " ")
        }.first
        var path = try #require(mapped, "no file is mapped where gps_unpack is (\(String(unpack, radix: 16)))")
        if !path.contains("libgps") {
            // Linked in (a release build): the checks read the library it came from instead.
            path = GPSDInstallation.current.prefix.map { "\($0)/lib/libgps.so" } ?? "/usr/lib/x86_64-linux-gnu/libgps.so"
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("nm-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
        nm.arguments = ["-D", "--defined-only", path]
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        nm.standardOutput = try FileHandle(forWritingTo: output)
        try nm.run()
        nm.waitUntilExit()
        guard nm.terminationStatus == 0 else { throw HarnessError("nm -D \(path) failed") }
        let text = try String(contentsOf: output, encoding: .utf8)
        let names = text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1] == "T" else { return nil }
            return String(fields[2].split(separator: "@").first ?? fields[2])
        }
        return (path, Set(names))
    }

    /// Whether `header` declares a function `name` (outside its comments).
    static func declares(_ header: String, _ name: String) throws -> Bool {
        header.contains(try Regex(#"\b"# + name + #"\s*\("#))
    }

    @Test("CGPS calls only libgps functions gps.h declares (gps_unpack), no private symbol")
    func publicAPIOnly() throws {
        let header = try Self.withoutComments(String(contentsOfFile: Self.header, encoding: .utf8))
        let libgps = try Self.libgpsFunctions()
        let calls = try Self.shimCalls()
        let fromLibgps = calls.intersection(libgps.names)
        // Not an empty check: the shim does call into libgps, and a private symbol would be seen.
        #expect(fromLibgps.contains("gps_unpack"), "the shim calls no libgps function of \(libgps.path)")
        let privateParserDeclared = try Self.declares(header, "libgps_json_unpack")
        #expect(libgps.names.contains("libgps_json_unpack") && !privateParserDeclared,
                "\(libgps.path) no longer exports the private parser this test knows: choose another private symbol to prove the check")
        let undeclared = try fromLibgps.filter { try !Self.declares(header, $0) }.sorted()
        #expect(undeclared.isEmpty, "the shim calls \(undeclared), which \(libgps.path) exports but \(Self.header) does not declare")
    }

    @Test("the libgps loaded has the API of the gps.h the build compiled against")
    func libraryMatchesHeader() throws {
        let header = try String(contentsOfFile: Self.header, encoding: .utf8)
        let match = try #require(header.firstMatch(of: try Regex(#"#define\s+GPSD_API_MAJOR_VERSION\s+(\d+)"#)))
        let api = try #require(match.output[1].substring.flatMap { Int($0) })
        #expect(Int(geotrack_libgps_api()) == api, "built against API \(geotrack_libgps_api()), tests' gps.h \(Self.header) is API \(api)")
        let libgps = try Self.libgpsFunctions()
        if let prefix = GPSDInstallation.current.prefix {
            let resolved = URL(fileURLWithPath: prefix).standardizedFileURL.resolvingSymlinksInPath().path
            #expect(libgps.path.hasPrefix(prefix) || libgps.path.hasPrefix(resolved),
                    "GEOTRACK_TEST_GPSD_PREFIX=\(prefix), yet geotrack opened \(libgps.path)")
        }
    }
}
