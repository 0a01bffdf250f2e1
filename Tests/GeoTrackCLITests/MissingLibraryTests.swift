import Foundation
import GeoTrackTesting
import Testing

/// A library geotrack opens at first use that cannot be loaded: one line naming the package, exit
/// 72, and no retrying (a service unit then keeps from restarting on it).
///
/// The library is hidden from one run only: in a mount namespace of its own, its file is covered
/// with /dev/null (as an unpacked but broken package would leave it), so nothing outside changes.
/// That takes unshare(1) with the right to mount, which CI's root has.
@Suite("a missing library", .enabled(if: LibraryHiding.isPossible, "unshare -m cannot mount here (needs root): no library can be hidden"))
struct MissingLibraryTests {
    /// Where the dynamic loader finds `soname`, its symbolic links followed.
    static func file(of soname: String) throws -> String {
        let folders = ["/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu",
                       "/usr/lib64", "/usr/lib"]
        let found = try #require(folders.map { $0 + "/" + soname }.first { FileManager.default.fileExists(atPath: $0) },
                                 "\(soname) is not installed")
        return URL(fileURLWithPath: found).resolvingSymlinksInPath().path
    }

    @Test("exit 72 and one line naming the package, for each library and what needs it", arguments: [
        ("libgps.so.28", ["watch", "--gpsd", "127.0.0.1:1"], "install gpsd's client library (Debian: apt install libgps28)"),
        ("libgps.so.28", ["devices", "--gpsd", "127.0.0.1:1", "--timeout", "5"], "(Debian: apt install libgps28)"),
        ("libmosquitto.so.1", ["replay", "LOG", "--publish", "mqtt://127.0.0.1:1", "--publish-wait", "0"],
         "install libmosquitto (Debian: apt install libmosquitto1)"),
        ("libmosquitto.so.1", ["fleet", "mqtt://127.0.0.1:1"], "(Debian: apt install libmosquitto1)"),
        ("libcurl.so.4", ["replay", "LOG", "--publish", "http://127.0.0.1:1/pub", "--publish-wait", "0"],
         "install libcurl (Debian: apt install libcurl4)"),
        ("libsqlite3.so.0", ["replay", "LOG", "--publish", "mqtt://127.0.0.1:1", "--publish-wait", "0"],
         "install SQLite 3 (Debian: apt install libsqlite3-0)"),
    ])
    func missing(soname: String, arguments: [String], advice: String) async throws {
        let home = try TestSupport.temporaryDirectory()
        try await TestSupport.grantAccess(home: home)
        let log = try Corpus.path("haicom-305N.nmea")
        let command = [TestSupport.binary] + arguments.map { $0 == "LOG" ? log : $0 }
        // libgps.so.28 is the system gpsd's; a build against another names its libgps by path.
        let script = "mount --bind /dev/null \"$1\" && shift && exec \"$@\""
        let run = try await TestSupport.run("/usr/bin/unshare", ["-m", "sh", "-c", script, "sh", try Self.file(of: soname)] + command,
                                            environment: ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                                                          "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                                          "HOME": home.path])
        #expect(run.status == 72, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("geotrack: ") }
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.contains("cannot load \(soname) (") == true, "\(run.stderr)")
        #expect(lines.first?.hasSuffix(advice) == true, "\(run.stderr)")
    }
}

/// Whether this machine lets a test hide a library from one run (``MissingLibraryTests``).
enum LibraryHiding {
    static let isPossible: Bool = {
        guard geteuid() == 0,
              let process = try? Process.run(URL(fileURLWithPath: "/usr/bin/unshare"), arguments: ["-m", "true"]) else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()
}
