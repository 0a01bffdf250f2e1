import Foundation
import GeoTrackTesting
import LocationKit
import Testing
@testable import GeoTrackCLI

@Suite("Authorization at the terminal")
struct AuthorizationTests {
    static func store() throws -> AuthorizationStore {
        AuthorizationStore(directory: try TestSupport.temporaryDirectory().path, policyPath: "/nonexistent/policy")
    }

    @Test("a non-interactive run never asks: it fails with its own exit code naming 'geotrack auth grant'")
    func nonInteractive() throws {
        let gate = AuthorizationGate(store: try Self.store(), interactive: false)
        do {
            _ = try gate.requireAccess()
            Issue.record("went through undecided")
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
        try store.write(.authorizedAlways)
        #expect(try AuthorizationGate(store: store, interactive: false).requireAccess() == .stored(.authorizedAlways))
    }

    static func gate(_ store: AuthorizationStore, answers: String) -> (AuthorizationGate, () -> Void) {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        let devNull = open("/dev/null", O_WRONLY)
        Terminal.write(answers, to: fds[1])
        close(fds[1])
        let gate = AuthorizationGate(store: store, interactive: true, prompter: TerminalPrompter(input: fds[0], output: devNull))
        return (gate, { close(fds[0]); close(devNull) })
    }

    @Test("'always' is stored; a bad answer asks again; 'deny' is stored and refused")
    func asking() throws {
        let store = try Self.store()
        let (always, closeAlways) = Self.gate(store, answers: "what\na\n")
        defer { closeAlways() }
        #expect(try always.requireAccess() == .stored(.authorizedAlways))
        #expect(try store.read() == .authorizedAlways)

        let other = try Self.store()
        let (deny, closeDeny) = Self.gate(other, answers: "d\n")
        defer { closeDeny() }
        #expect(throws: CLIError(.noPermission, "location access denied: run 'geotrack auth grant' to allow it")) {
            try deny.requireAccess()
        }
        #expect(try other.read() == .denied)
    }

    @Test("'once' stores nothing: the run's decision lives in memory, and a later stored deny wins over it at once")
    func once() async throws {
        let store = try Self.store()
        let (gate, close) = Self.gate(store, answers: "o\n")
        defer { close() }
        let access = try gate.requireAccess()
        guard case .once(let memory) = access else {
            Issue.record("not a once access: \(access)")
            return
        }
        #expect(try store.read() == .notDetermined)
        #expect(access.store(default: store) === memory)
        #expect(try memory.read() == .authorizedWhenInUse)
        #expect(!FileManager.default.fileExists(atPath: store.path))
        // `geotrack auth deny` from another terminal, while the run goes on.
        let changes = try memory.changes()
        let follower = try #require(access.followDecisions(of: store))
        defer { follower.cancel() }
        try AuthorizationStore(directory: store.directory, policyPath: store.policyPath).write(.denied)
        #expect(await changes.firstElements(1) == [StoredAuthorization(.denied)])
        #expect(try memory.read() == .denied)
    }

    @Test("the prompter is LocationKit's terminal AuthorizationPrompter")
    func prompterProtocol() async throws {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(fds[0]); close(devNull) }
        Terminal.write("n\n", to: fds[1])
        close(fds[1])
        let prompter: any AuthorizationPrompter = TerminalPrompter(input: fds[0], output: devNull)
        #expect(await prompter.requestAuthorization(for: .whenInUse) == .denied)
        #expect(await prompter.requestAuthorization(for: .whenInUse) == .dismissed)
    }

    @Test("'auth grant' under the administrator's deny is refused with 77, naming the policy file")
    func grantUnderPolicy() throws {
        let directory = try TestSupport.temporaryDirectory()
        let policy = directory.appendingPathComponent("policy").path
        try "deny\n".write(toFile: policy, atomically: true, encoding: .utf8)
        let store = AuthorizationStore(directory: directory.appendingPathComponent("state").path, policyPath: policy)
        #expect(throws: CLIError(.noPermission, "location access is forbidden by the administrator's policy in \(policy); a grant cannot lift it")) {
            try AuthorizationGate.grant(in: store)
        }
        #expect(!FileManager.default.fileExists(atPath: store.path))
        let open = try Self.store()
        try AuthorizationGate.grant(in: open)
        #expect(try open.read() == .authorizedAlways)
    }

    @Test("'auth grant' replaces a decision file that holds none, or a link, as 'auth deny' does: deciding again is one step")
    func grantReplacesUnusableFile() async throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = folder + "/authorization"
        let target = home.appendingPathComponent("elsewhere").path
        try "denied\n".write(toFile: target, atomically: true, encoding: .utf8)
        for make in [{ try "garbage\n".write(toFile: file, atomically: true, encoding: .utf8) },
                     { try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: target) }] {
            try? FileManager.default.removeItem(atPath: file)
            try make()
            // It was refused with 73 and "Run `geotrack auth reset` and decide again", while deny went through.
            let grant = try await TestSupport.geotrack(["auth", "grant"], home: home)
            #expect(grant.status == 0, "\(grant.stderr)")
            #expect(try await TestSupport.geotrack(["auth", "status"], home: home).stdout == "authorizedAlways\n")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "denied\n", "the link's target is never written")
        }
    }

    @Test("a decision file or folder that cannot be used is 73, as the outbox's: the file's fix is a reset, the folder's its own")
    func unusableState() async throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = folder + "/authorization"
        try "garbage\n".write(toFile: file, atomically: true, encoding: .utf8)
        for arguments in [["auth", "status"], ["watch", "--once", "--gpsd", "127.0.0.1:9"]] {
            let run = try await TestSupport.geotrack(arguments, home: home)
            #expect(run.status == 73, "\(arguments): \(run.stderr)")
            #expect(run.stderr == "geotrack: cannot use the authorization file \(file): it does not hold a decision. Run `geotrack auth reset` and decide again.\n")
        }
        #expect(try await TestSupport.geotrack(["auth", "reset"], home: home).status == 0)
        // A folder where the file belongs: a reset removes files only, so the advice is not a reset.
        try FileManager.default.createDirectory(atPath: file + "/kept", withIntermediateDirectories: true)
        for arguments in [["auth", "reset"], ["auth", "status"], ["watch", "--once", "--gpsd", "127.0.0.1:9"]] {
            let run = try await TestSupport.geotrack(arguments, home: home)
            #expect(run.status == 73, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasSuffix(". That is a folder where the decision file belongs: move it away, then run `geotrack auth grant`.\n"),
                    "\(arguments): \(run.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: file + "/kept"))
        try FileManager.default.removeItem(atPath: file)
        #expect(chmod(folder, 0o777) == 0)
        let open = try await TestSupport.geotrack(["auth", "grant"], home: home)
        #expect(open.status == 73, "\(open.stderr)")
        #expect(open.stderr == "geotrack: refusing the authorization decision in \(folder): others may write to the folder \(folder) (mode 777); run `chmod 700 \(folder)`\n")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test("a system user whose HOME does not exist (nobody's /nonexistent) is told to set XDG_STATE_HOME, not to make a folder under /",
          .enabled(if: geteuid() == 0, "needs root, to run geotrack as nobody"))
    func systemUserWithoutHome() async throws {
        let home = "/nonexistent-geotrack-\(getpid())"
        let run = try await TestSupport.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                                 "/usr/bin/env", "-u", "XDG_STATE_HOME", "-u", "XDG_CONFIG_HOME",
                                                                 "HOME=\(home)", TestSupport.binary, "auth", "grant"])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr == "geotrack: refusing the authorization decision in \(home)/.local/state/geotrack: the folder cannot be created: "
                + "\(home) does not exist, and this user (uid 65534) may not make it; set XDG_STATE_HOME to a folder it may write to "
                + "(a service: StateDirectory=geotrack and XDG_STATE_HOME=/var/lib)\n")
        #expect(!FileManager.default.fileExists(atPath: home))
    }
}
