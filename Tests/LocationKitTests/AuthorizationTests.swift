import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Logging
import Testing

@MainActor
@Suite struct AuthorizationTests {
    func fixes(_ count: Int) -> [ScriptedLocationSource.Step] {
        [.state(.receiverPresent)] + (0..<count).map { .fix(.synthetic(at: .at(north: Double($0) * 10), second: Double($0))) }
    }

    @Test func alreadyGrantedIsTrueThenFinishes() async throws {
        let harness = try Harness({ _ in [] }, status: .authorizedAlways)
        let updates = await harness.manager.authorizationUpdates.firstElements(10)
        #expect(updates == [true])
        #expect(harness.manager.authorizationStatus == .authorizedAlways)
    }

    @Test("as on iOS 14: the delegate set right after the manager is made hears its status once; the rx streams say the status once, as before")
    func theStatusIsSaidWhenTheManagerIsMade() async throws {
        for status in [AuthorizationStatus.authorizedWhenInUse, .denied, nil] {
            let harness = try Harness({ _ in [] }, status: status)
            let statuses = harness.manager.rx.authorizationStatus
            let changes = harness.manager.rx.didChangeAuthorization
            let told = Task { await statuses.firstElements(2) }
            let changed = Task { await changes.firstElements(1) }
            for _ in 0..<100 { await Task.yield() }
            #expect(harness.delegate.events == [.authorization(status ?? .notDetermined)])
            // A change afterwards reaches both; the streams hold no second copy of the first status.
            try harness.store.write(.authorizedAlways)
            #expect(await told.value == [status ?? .notDetermined, .authorizedAlways])
            #expect(await changed.value == [.authorizedAlways])
            #expect(harness.delegate.events == [.authorization(status ?? .notDetermined), .authorization(.authorizedAlways)])
        }
    }

    @Test func notDeterminedThenGrantedThroughThePrompter() async throws {
        let prompter = ScriptedAuthorizationPrompter()
        let harness = try Harness({ _ in fixes(3) }, status: nil, prompter: prompter)
        #expect(harness.manager.authorizationStatus == .notDetermined)
        let updates = harness.manager.rx.isAuthorized
        let answers = Task { await updates.firstElements(10) }
        let locations = harness.manager.rx.didUpdateLocations
        harness.manager.startUpdatingLocation()
        harness.manager.requestWhenInUseAuthorization()
        await prompter.waitForPrompt()
        // Nothing is delivered while the question is open.
        #expect(harness.delegate.locations.isEmpty)
        prompter.respond(.granted)
        #expect(await answers.value == [false, true])
        #expect(prompter.prompts == [.whenInUse])
        #expect(harness.manager.authorizationStatus == .authorizedWhenInUse)
        #expect(try harness.store.read() == .authorizedWhenInUse)
        // Undecided when the manager was made (as iOS 14 says it), then the grant.
        #expect(Array(harness.delegate.events.prefix(2)) == [.authorization(.notDetermined), .authorization(.authorizedWhenInUse)])
        let delivered = await locations.firstElements(3).flatMap { $0 }
        #expect(delivered.count == 3)
    }

    @Test func notDeterminedThenDeniedIsReportedNeverSilent() async throws {
        let prompter = ScriptedAuthorizationPrompter(answering: .denied)
        let harness = try Harness({ _ in fixes(3) }, status: nil, prompter: prompter)
        let updates = harness.manager.authorizationUpdates
        let errors = harness.manager.rx.didFailWithError
        harness.manager.startUpdatingLocation()
        await #expect(throws: LocationError.denied) { try await harness.manager.requestAuthorization(.always) }
        #expect(await updates.firstElements(10) == [false, false])
        let error = await errors.firstElements(1).first
        #expect(error == .denied)
        // The library says what failed; what to run is the program's to say.
        #expect(error?.description == "location access is denied")
        #expect(harness.delegate.locations.isEmpty)
        #expect(try harness.store.read() == .denied)
        // A later start is refused at once, not silently ignored.
        harness.manager.startUpdatingHeading()
        #expect(harness.delegate.errors == [.denied, .denied])
    }

    @Test("a cancelled requestAuthorization returns at once, undecided; the question stays open and its answer counts",
          .timeLimit(.minutes(1)))
    func cancelledRequestReturnsWhileThePromptStaysOpen() async throws {
        let prompter = ScriptedAuthorizationPrompter()
        let harness = try Harness({ _ in [] }, status: nil, prompter: prompter)
        let manager = harness.manager
        let request = Task { @MainActor () -> LocationError? in
            do throws(LocationError) {
                try await manager.requestAuthorization()
                return nil
            } catch {
                return error
            }
        }
        await prompter.waitForPrompt()
        request.cancel()
        // Before the fix, this waited for the user's answer, which never comes here.
        #expect(await request.value == .notDetermined)
        #expect(manager.authorizationStatus == .notDetermined)
        // The question was not withdrawn: answering it still decides, and a new request sees it.
        let changes = manager.rx.didChangeAuthorization
        prompter.respond(.granted)
        #expect(await changes.firstElements(1) == [.authorizedWhenInUse])
        try await manager.requestAuthorization()
        #expect(prompter.prompts == [.whenInUse])
    }

    @Test func withoutPrompterTheStatusStaysUndecidedAndSaysWhy() async throws {
        let harness = try Harness({ _ in [] }, status: nil)
        harness.manager.requestWhenInUseAuthorization()
        #expect(harness.manager.authorizationStatus == .notDetermined)
        do {
            try await harness.manager.requestAuthorization()
            Issue.record("expected an error")
        } catch {
            #expect(error == .notDetermined)
            // Undecided, and no more: the same error follows a question dismissed unanswered, where
            // a prompt was there to ask.
            #expect(error.description == "location access has not been decided")
        }
        #expect(harness.manager.authorizationStatus == .notDetermined)
    }

    @Test(.timeLimit(.minutes(5)))
    func changeMadeByAnotherProcessIsNoticed() async throws {
        let harness = try Harness({ _ in fixes(2) }, status: nil)
        let changes = harness.manager.rx.didChangeAuthorization
        let updates = harness.manager.authorizationUpdates
        let locations = harness.manager.rx.didUpdateLocations
        harness.manager.startUpdatingLocation()
        // What `geotrack auth grant` does: its own store on the same directory.
        let cli = AuthorizationStore(directory: harness.store.directory, policyPath: harness.store.policyPath)
        try cli.write(.authorizedAlways)
        #expect(await changes.firstElements(1) == [.authorizedAlways])
        #expect(await updates.firstElements(10) == [false, true])
        #expect(await locations.firstElements(2).count == 2)

        let more = harness.manager.rx.didChangeAuthorization
        try cli.write(.denied)
        #expect(await more.firstElements(1) == [.denied])
        #expect(harness.delegate.errors.last == .denied)
    }

    @Test func administratorPolicyRestrictsAndCannotBeOverridden() async throws {
        let prompter = ScriptedAuthorizationPrompter(answering: .granted)
        let harness = try Harness({ _ in fixes(2) }, status: .authorizedAlways, prompter: prompter, policy: "deny\n")
        #expect(harness.manager.authorizationStatus == .restricted)
        #expect(await harness.manager.authorizationUpdates.firstElements(10) == [false])
        harness.manager.startUpdatingLocation()
        guard case .restricted(let path) = harness.delegate.errors.first else {
            Issue.record("expected a restricted error, got \(harness.delegate.errors)")
            return
        }
        #expect(path == harness.store.policyPath)
        await #expect(throws: LocationError.self) { try await harness.manager.requestAuthorization() }
        #expect(prompter.prompts.isEmpty)
        #expect(throws: LocationError.self) { try harness.store.write(.restricted) }
    }
}

@Suite struct AuthorizationStoreTests {
    @Test func writesAtomicallyWithPrivateMode() throws {
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path + "/nested/geotrack", policyPath: directory.path + "/none")
        #expect(try store.read() == .notDetermined)
        try store.write(.authorizedWhenInUse)
        #expect(try store.read() == .authorizedWhenInUse)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // Only the decision file remains: the temporary file was renamed over it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory) == [AuthorizationStore.fileName])
        try store.write(.denied)
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == "denied\n")
        try store.reset()
        #expect(try store.read() == .notDetermined)
        try store.reset()
    }

    @Test func garbageIsAnActionableError() throws {
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path, policyPath: directory.path + "/none")
        try "yes please".write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect {
            try store.read()
        } throws: { error in
            (error as? LocationError)?.description == "cannot use the authorization file \(store.path): it does not hold a decision"
        }
    }

    @Test func directoryFollowsXDG() {
        #expect(AuthorizationStore.defaultDirectory(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/a"]) == "/x/state/geotrack")
        #expect(AuthorizationStore.defaultDirectory(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/a"]) == "/home/a/.local/state/geotrack")
        #expect(AuthorizationStore.defaultDirectory(environment: ["HOME": "/home/a"]) == "/home/a/.local/state/geotrack")
    }

    @Test("the default store reads XDG_STATE_HOME and HOME one by one, and lands where the whole environment says")
    func defaultEnvironmentIsTheProcesss() {
        let whole = ProcessInfo.processInfo.environment
        #expect(AuthorizationStore().directory == AuthorizationStore.defaultDirectory(environment: whole))
        let read = ProcessEnvironment.stateDirectoryVariables
        #expect(read["HOME"] == whole["HOME"])
        #expect(read["XDG_STATE_HOME"] == whole["XDG_STATE_HOME"])
        #expect(ProcessEnvironment.values(of: ["GEOTRACK_SURELY_UNSET_\(UInt32.random(in: 0...UInt32.max))"]).isEmpty)
    }
}

/// The decision and the policy fail closed: a folder others can write to, or another user's,
/// is refused for reading and writing; a policy path that is a dangling link denies.
@Suite struct AuthorizationFailsClosedTests {
    @Test("a decision in a folder others may write to is refused, for reading and writing, with the reason and the fix")
    func writableByOthers() throws {
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path, policyPath: directory.path + "/none")
        try store.write(.authorizedAlways)
        #expect(chmod(directory.path, 0o777) == 0)
        let read = #expect(throws: LocationError.self) { try store.read() }
        #expect(read == .stateFolder(path: directory.path,
                                     reason: "others may write to the folder \(directory.path) (mode 777); run `chmod 700 \(directory.path)`"),
                "\(String(describing: read))")
        #expect(throws: LocationError.self) { try store.write(.denied) }
        #expect(chmod(directory.path, 0o700) == 0)
        #expect(try store.read() == .authorizedAlways)
    }

    @Test("a folder that cannot be made says why: a file stands where a folder above it should be")
    func folderCannotBeMade() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/state"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let store = AuthorizationStore(directory: file + "/geotrack", policyPath: directory.path + "/none")
        let error = #expect(throws: LocationError.self) { try store.write(.authorizedAlways) }
        #expect(error == .stateFolder(path: file + "/geotrack", reason: "the folder cannot be created: \(file) is not a folder"),
                "\(String(describing: error))")
    }

    @Test("a decision in a folder another user owns is refused, naming the owner")
    func ownedByAnother() throws {
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path, policyPath: directory.path + "/none")
        try store.write(.authorizedAlways)
        // Only root can give a folder away; as anyone else the case cannot be made here.
        try #require(geteuid() == 0, "giving a folder to another user needs root")
        #expect(chown(directory.path, 65_534, 65_534) == 0)
        defer { _ = chown(directory.path, 0, 0) }
        let read = #expect(throws: LocationError.self) { try store.read() }
        #expect(read?.description.contains("belongs to user 65534, not to you (0)") == true, "\(String(describing: read))")
    }

    @Test("a decision file that is a symbolic link is refused, not followed, even to a file that grants; reset removes the link only")
    func linkedDecision() throws {
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path + "/state", policyPath: directory.path + "/none")
        try store.write(.denied)
        let granting = directory.path + "/granting"
        try "authorizedAlways\n".write(toFile: granting, atomically: true, encoding: .utf8)
        #expect(unlink(store.path) == 0 && symlink(granting, store.path) == 0)
        let read = #expect(throws: LocationError.self) { try store.read() }
        #expect(read == .authorizationStore(path: store.path, reason: "it is a symbolic link, which is not followed there"))
        try store.reset()
        #expect(try store.read() == .notDetermined)
        #expect(try String(contentsOfFile: granting, encoding: .utf8) == "authorizedAlways\n")
    }

    @Test("a policy path that is a dangling symbolic link denies; nothing there allows")
    func danglingPolicyLink() throws {
        let directory = try TemporaryDirectory()
        let policy = directory.path + "/policy"
        let store = AuthorizationStore(directory: directory.path + "/state", policyPath: policy)
        #expect(try store.read() == .notDetermined)
        #expect(symlink(directory.path + "/gone", policy) == 0)
        #expect(try store.read() == .restricted)
    }
}
