import Foundation
import Testing
@testable import GeoTrackCLI

@Suite("Authorization at the terminal")
struct AuthorizationTests {
    static func store() throws -> AuthorizationFileStore {
        AuthorizationFileStore(environment: ["XDG_STATE_HOME": try TestSupport.temporaryDirectory().path])
    }

    @Test("a non-interactive run never asks: it fails with its own exit code naming 'geotrack auth grant'")
    func nonInteractive() throws {
        let gate = AuthorizationGate(store: try Self.store(), interactive: false)
        #expect(throws: CLIError.self) { try gate.requireAccess() }
        do {
            _ = try gate.requireAccess()
        } catch {
            #expect(error.status == .authorizationRequired)
            #expect(error.message.contains("geotrack auth grant"))
        }
    }

    @Test("denied is EX_NOPERM; granted goes through without asking")
    func storedDecisions() throws {
        let store = try Self.store()
        try store.write(.denied)
        do {
            _ = try AuthorizationGate(store: store, interactive: false).requireAccess()
            Issue.record("denied went through")
        } catch {
            #expect(error.status == .noPermission)
        }
        try store.write(.always)
        #expect(try AuthorizationGate(store: store, interactive: false).requireAccess() == .always)
        try store.reset()
        #expect(try store.read() == .notDetermined)
    }

    @Test("asking: 'always' is stored, 'once' is not, a bad answer asks again", arguments: [
        ("a\n", AuthorizationChoice.always, AuthorizationChoice.always),
        ("o\n", .once, .notDetermined),
        ("what\nd\n", .denied, .denied),
    ])
    func asking(answers: String, result: AuthorizationChoice, stored: AuthorizationChoice) throws {
        let store = try Self.store()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(fds[0]); close(devNull) }
        Terminal.write(answers, to: fds[1])
        close(fds[1])
        let gate = AuthorizationGate(store: store, interactive: true, prompter: TerminalPrompter(input: fds[0], output: devNull))
        do {
            #expect(try gate.requireAccess() == result)
        } catch {
            #expect(result == .denied)
            #expect(error.status == .noPermission)
        }
        #expect(try store.read() == stored)
    }
}
