import Foundation
import Testing

@Suite("The authorization prompt, answered through tmux", .serialized)
struct TerminalPromptTests {
    static let question = "Allow [o]nce, [a]lways, a[p]proximately, [d]eny?"

    @Test("first run at a terminal asks before anything else; the answer is stored or not", arguments: [
        ("a", "authorizedAlways"), ("d", "denied"), ("o", nil), ("p", "authorizedAlways reducedAccuracy"),
    ] as [(String, String?)])
    func prompt(answer: String, stored: String?) async throws {
        let home = try TestSupport.temporaryDirectory()
        // Nothing listens on port 9 of localhost, and --no-retry makes that the end of the run.
        let session = try await TmuxSession(width: 80, command: [TestSupport.binary, "watch", "--gpsd", "127.0.0.1:9", "--no-retry"],
                                      environment: ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                                                    "XDG_CONFIG_HOME": home.path])
        let screen = try await session.waitFor("the prompt") { $0.last?.contains(Self.question) == true }
        #expect(screen.count == 1, "the prompt comes before anything else")
        try await session.send(answer, "Enter")
        let status = try await session.waitForExit()
        let file = home.appendingPathComponent("state/geotrack/authorization").path
        let content = (try? String(contentsOfFile: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(content == stored)
        #expect(status == (answer == "d" ? 77 : 69))
    }

    @Test("with stdout piped (watch --json | cat) it still asks, on the controlling terminal")
    func promptWithStdoutPiped() async throws {
        let home = try TestSupport.temporaryDirectory()
        let state = home.appendingPathComponent("state").path
        let command = "XDG_STATE_HOME=\(TmuxSession.quote(state)) \(TmuxSession.quote(TestSupport.binary)) watch --gpsd 127.0.0.1:9 --no-retry --json | cat"
        let session = try await TmuxSession(width: 80, command: ["/bin/sh", "-c", command], environment: ["XDG_CONFIG_HOME": home.path])
        try await session.waitFor("the prompt on the terminal") { $0.last?.contains(Self.question) == true }
        try await session.send("a", "Enter")
        _ = try await session.waitForExit()
        let file = home.appendingPathComponent("state/geotrack/authorization").path
        let content = (try? String(contentsOfFile: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(content == "authorizedAlways")
    }

    @Test("at a terminal, replaying a pipe into GPX records every point: the progress bar never reads the input first")
    func progressNeverCostsData() async throws {
        let home = try TestSupport.temporaryDirectory()
        let gpx = home.appendingPathComponent("piped.gpx").path
        let log = SafetyTests.log
        let command = "\(TmuxSession.quote(TestSupport.binary)) replay <(cat \(TmuxSession.quote(log))) --gpx \(TmuxSession.quote(gpx))"
        let session = try await TmuxSession(width: 80, command: ["/bin/bash", "-c", command], environment: ["HOME": home.path])
        #expect(try await session.waitForExit() == 0)
        let points = try String(contentsOfFile: gpx, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
        #expect(points == 6)
        // A regular file still gets its bar, counted first, with every point too.
        let file = home.appendingPathComponent("file.gpx").path
        let bar = try await TmuxSession(width: 80, command: [TestSupport.binary, "replay", log, "--gpx", file], environment: ["HOME": home.path])
        #expect(try await bar.waitForExit() == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1 == 6)
    }

    @Test("on a TERM=dumb terminal, replay --gpx draws no progress bar, which such a terminal would show as escape sequences")
    func noProgressBarOnADumbTerminal() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = SafetyTests.log
        func replay(term: String, into name: String) async throws -> TestSupport.Run {
            let gpx = home.appendingPathComponent(name).path
            let command = ["env", "TERM=\(term)", "HOME=\(home.path)", TestSupport.binary, "replay", log, "--gpx", gpx]
                .map(TmuxSession.quote).joined(separator: " ")
            let run = try await TestSupport.run("/usr/bin/script", ["-q", "-e", "-c", "stty cols 80 rows 24; " + command, "/dev/null"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try String(contentsOfFile: gpx, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1 == 6)
            return run
        }
        // The same run on a terminal that can redraw draws the bar, so the check below can fail.
        let drawn = try await replay(term: "xterm", into: "drawn.gpx")
        #expect(drawn.stdout.contains("points"), "\(drawn.stdout.debugDescription)")
        let dumb = try await replay(term: "dumb", into: "dumb.gpx")
        #expect(!dumb.stdout.contains("\u{1B}") && !dumb.stdout.contains("/6 points"), "\(dumb.stdout.debugDescription)")
    }
}
