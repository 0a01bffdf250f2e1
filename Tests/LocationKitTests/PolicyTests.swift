import Foundation
import GeoTrackTesting
@testable import LocationKit
import Testing

/// The administrator's policy fails closed: only a missing file, or a root-owned file no one
/// else may write holding the one word `allow`, leaves the decision to the user.
@Suite struct PolicyTests {
    /// The status a store reads under `policy` (nil: no policy file), with a stored grant.
    static func status(policy: String?, mode: mode_t = 0o644, owner: uid_t = 0) throws -> AuthorizationStatus {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/policy"
        if let policy {
            try policy.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(chmod(path, mode) == 0)
            if getuid() == 0 { #expect(chown(path, owner, 0) == 0) }
        }
        let store = AuthorizationStore(directory: directory.path + "/state", policyPath: path)
        try store.write(.authorizedAlways)
        return try withExtendedLifetime(directory) { try store.read() }
    }

    @Test("no policy file, or a plain 'allow', leaves the user's decision", arguments: [nil, "allow\n", "ALLOW # reviewed 2026\n", "# a note\n\n allow \n"])
    func allowed(policy: String?) throws {
        #expect(try Self.status(policy: policy) == .authorizedAlways)
    }

    @Test("'deny' in any spelling gpsd admins write, anything unclear, and an empty file restrict", arguments: [
        "deny\n", "deny # until the audit\n", "DENY", "denied\n", "no\n", "allow deny\n", "allow\nallow\n", "", "# only a comment\n",
    ])
    func restricted(policy: String) throws {
        #expect(try Self.status(policy: policy) == .restricted)
    }

    @Test("a policy anyone else may change, or that is not root's, restricts whatever it says")
    func untrustedFile() throws {
        #expect(try Self.status(policy: "allow\n", mode: 0o666) == .restricted)
        #expect(try Self.status(policy: "allow\n", mode: 0o664) == .restricted)
        if getuid() == 0 {
            #expect(try Self.status(policy: "allow\n", owner: 65_534) == .restricted)
        }
    }

    @Test("a policy path that is a directory, or too large to be a policy, restricts")
    func notAPolicyFile() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/policy", withIntermediateDirectories: true)
        let store = AuthorizationStore(directory: directory.path + "/state", policyPath: directory.path + "/policy")
        try store.write(.authorizedAlways)
        #expect(try store.read() == .restricted)
        #expect(try Self.status(policy: String(repeating: "allow\n", count: 2_000)) == .restricted)
    }

    @Test("a decision file that is not one: a short error that does not repeat its contents, and no 1 GB read")
    func badDecisionFile() throws {
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path, policyPath: directory.path + "/policy")
        try String(repeating: "\u{1B}[31mgarbage ", count: 10_000).write(toFile: store.path, atomically: true, encoding: .utf8)
        do {
            _ = try store.read()
            Issue.record("a garbage decision file was read as a decision")
        } catch {
            #expect(!error.description.contains("garbage"))
            #expect(error.description == "cannot use the authorization file \(store.path): it cannot be read (larger than 4096 bytes)")
        }
    }
}
