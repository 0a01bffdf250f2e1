import Foundation
import GeoTrackTesting
import Testing

/// Output that stdout does not take is a failure: every command run with its stdout on
/// /dev/full (each write fails with ENOSPC) exits 74 with one line on stderr saying so,
/// instead of 0 with its output lost.
@Suite("stdout that cannot be written")
struct StdoutFailureTests {
    /// What a command run with its stdout on /dev/full did.
    struct Run {
        var status: Int32
        var stderr: String
    }

    /// Runs `geotrack` as ``TestSupport/geotrack(_:home:environment:input:)`` does, but with its
    /// stdout on /dev/full.
    static func geotrackToFullDevice(_ arguments: [String], home: URL) async throws -> Run {
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                           "HOME": home.path]
        let child = try ChildProcess(TestSupport.binary, arguments, environment: environment, standardOutput: "/dev/full")
        let status = await child.waitForExit()
        return Run(status: status, stderr: child.stderr)
    }

    /// The line that says why.
    static let failure = "geotrack: cannot write to standard output: No space left on device"

    /// Expects status 74 and the one line that says why: alone on stderr, or with `progress`, as
    /// the last line after the progress `watch --json` writes there (stdout holds the JSON).
    static func expectWriteFailure(_ run: Run, _ arguments: [String], progress: Bool = false,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 74, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        if progress {
            let lines = run.stderr.split(separator: "\n").map(String.init)
            #expect(lines.last == Self.failure, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
            #expect(lines.filter { $0.contains("cannot write") }.count == 1, "\(arguments): \(run.stderr)",
                    sourceLocation: sourceLocation)
        } else {
            #expect(run.stderr == Self.failure + "\n", "\(arguments)", sourceLocation: sourceLocation)
        }
    }

    static var log: String { get throws { try Corpus.path("haicom-305N.nmea") } }

    @Test("commands that need no gpsd or broker", arguments: [
        ["stats", "LOG"], ["stats", "LOG", "--json"], ["replay", "LOG"], ["replay", "LOG", "--json"],
        ["replay", "LOG", "--json", "--count", "2"], ["sky", "--replay", "LOG"],
        ["auth", "status"], ["auth"], ["auth", "grant"], ["auth", "deny"], ["auth", "reset"],
        ["outbox"], ["outbox", "list"], ["outbox", "flush"], ["outbox", "clear", "--all"],
        ["--help"], ["watch", "--help"], ["help", "watch"], ["help"], ["--version"], ["--gpsd", "h:1", "--version"],
        ["--generate-completion-script", "bash"], ["--generate-completion-script", "zsh"],
        ["--generate-completion-script", "fish"], ["--experimental-dump-help"],
    ])
    func offline(arguments: [String]) async throws {
        let arguments = try arguments.map { $0 == "LOG" ? try Self.log : $0 }
        let run = try await Self.geotrackToFullDevice(arguments, home: try TestSupport.temporaryDirectory())
        Self.expectWriteFailure(run, arguments)
    }

    @Test("the same commands with a working stdout still exit 0")
    func control() async throws {
        let home = try TestSupport.temporaryDirectory()
        for arguments in [["stats", try Self.log], ["auth", "status"], ["outbox"], ["help", "watch"], ["--version"]] {
            let run = try await TestSupport.geotrack(arguments, home: home)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(!run.stdout.isEmpty && run.stderr.isEmpty, "\(arguments): \(run.stderr)")
        }
    }

    @Test("devices and watch, from gpsd")
    func fromGPSD() async throws {
        let gpsd = try await GPSFake(log: try Corpus.path("sl869.nmea"), once: false)
        let home = try TestSupport.temporaryDirectory()
        for arguments in [["devices", "--gpsd", gpsd.address], ["devices", "--json", "--gpsd", gpsd.address]] {
            await Self.expectWriteFailure(try Self.geotrackToFullDevice(arguments, home: home), arguments)
        }
        #expect(try await TestSupport.geotrack(["auth", "grant"], home: home).status == 0)
        let json = ["watch", "--gpsd", gpsd.address, "--json", "--count", "3", "--timeout", "60"]
        await Self.expectWriteFailure(try Self.geotrackToFullDevice(json, home: home), json, progress: true)
        let lines = ["watch", "--gpsd", gpsd.address, "--count", "3", "--timeout", "60"]
        await Self.expectWriteFailure(try Self.geotrackToFullDevice(lines, home: home), lines)
    }

    @Test("fleet without a terminal stops at the first line it cannot write",
          arguments: [[], ["--json"]])
    func fleet(options: [String]) async throws {
        let broker = try await Mosquitto()
        let home = try TestSupport.temporaryDirectory()
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path, "HOME": home.path]
        let arguments = ["fleet", "mqtt://127.0.0.1:\(broker.port)"] + options
        let fleet = try ChildProcess(TestSupport.binary, arguments, environment: environment, standardOutput: "/dev/full")
        // Published until the view has subscribed and received one: then it has a line to write.
        let phone = #"{"_type":"location","acc":12,"lat":52.5,"lon":13.4,"tid":"jp","tst":1700000000}"#
        let ended = await waitUntil(timeout: .seconds(30)) {
            try? broker.publish(topic: "owntracks/jp/phone", message: phone)
            return fleet.hasExited
        }
        #expect(ended, "fleet did not stop: \(fleet.stderr)")
        guard ended else {
            fleet.signal(SIGKILL)
            return
        }
        Self.expectWriteFailure(Run(status: await fleet.waitForExit(), stderr: fleet.stderr), arguments)
    }
}
