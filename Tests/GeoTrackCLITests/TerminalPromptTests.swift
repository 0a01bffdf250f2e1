import Foundation
import Testing

@Suite("The authorization prompt, answered through tmux", .serialized)
struct TerminalPromptTests {
    static let question = "Allow [o]nce, [a]lways, or [d]eny?"

    @Test("first run at a terminal asks before anything else; the answer is stored or not", arguments: [
        ("a", "authorizedAlways"), ("d", "denied"), ("o", nil),
    ] as [(String, String?)])
    func prompt(answer: String, stored: String?) throws {
        let home = try TestSupport.temporaryDirectory()
        // Nothing listens on port 9 of localhost, and --no-retry makes that the end of the run.
        let session = try TmuxSession(width: 80, command: [TestSupport.binary, "watch", "--gpsd", "127.0.0.1:9", "--no-retry"],
                                      environment: ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                                                    "XDG_CONFIG_HOME": home.path])
        let screen = try session.waitFor("the prompt") { $0.last?.contains(Self.question) == true }
        #expect(screen.count == 1, "the prompt comes before anything else")
        try session.send(answer, "Enter")
        let status = try session.waitForExit()
        let file = home.appendingPathComponent("state/geotrack/authorization").path
        let content = (try? String(contentsOfFile: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(content == stored)
        #expect(status == (answer == "d" ? 77 : 69))
    }

    @Test("with stdout piped (watch --json | cat) it still asks, on the controlling terminal")
    func promptWithStdoutPiped() throws {
        let home = try TestSupport.temporaryDirectory()
        let state = home.appendingPathComponent("state").path
        let command = "XDG_STATE_HOME=\(TmuxSession.quote(state)) \(TmuxSession.quote(TestSupport.binary)) watch --gpsd 127.0.0.1:9 --no-retry --json | cat"
        let session = try TmuxSession(width: 80, command: ["/bin/sh", "-c", command], environment: ["XDG_CONFIG_HOME": home.path])
        try session.waitFor("the prompt on the terminal") { $0.last?.contains(Self.question) == true }
        try session.send("a", "Enter")
        _ = try session.waitForExit()
        let file = home.appendingPathComponent("state/geotrack/authorization").path
        let content = (try? String(contentsOfFile: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(content == "authorizedAlways")
    }
}
