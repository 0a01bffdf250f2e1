import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import GeoTrackReactive
import Testing

/// `ServiceSession`: iOS 18's way of saying "this program needs location access now".
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct ServiceSessionTests {
    static func first(_ count: Int, of diagnostics: EventStream<ServiceSession.Diagnostic>) async -> [ServiceSession.Diagnostic] {
        var seen: [ServiceSession.Diagnostic] = []
        for await diagnostic in diagnostics {
            seen.append(diagnostic)
            if seen.count == count { break }
        }
        return seen
    }

    @Test("undecided: creating a session asks, and its diagnostics go from a pending request to nothing missing")
    func asksWhenUndecided() async throws {
        let prompter = ScriptedAuthorizationPrompter()
        let harness = try Harness({ _ in [] }, status: nil, prompter: prompter)
        let session = ServiceSession(authorization: .whenInUse, manager: harness.manager)
        let diagnostics = session.diagnostics
        await prompter.waitForPrompt()
        #expect(prompter.prompts == [.whenInUse])
        prompter.respond(.granted)
        let seen = await Self.first(2, of: diagnostics)
        #expect(seen.first?.authorizationRequestInProgress == true && seen.first?.isBlocking == true)
        #expect(seen.last?.isBlocking == false)
        #expect(seen.last?.description == "nothing missing")
    }

    @Test("requiring always while the user allowed only while in use is diagnosed")
    func alwaysDenied() async throws {
        let harness = try Harness({ _ in [] }, status: .authorizedWhenInUse)
        let always = ServiceSession(authorization: .always, manager: harness.manager)
        let diagnostic = await Self.first(1, of: always.diagnostics).first
        #expect(diagnostic?.alwaysAuthorizationDenied == true && diagnostic?.isBlocking == true)
        let whenInUse = ServiceSession(authorization: .whenInUse, manager: harness.manager)
        #expect(await Self.first(1, of: whenInUse.diagnostics).first?.isBlocking == false)
    }

    @Test("a denial, then 'geotrack auth grant' from outside: the diagnostics follow the stored decision")
    func followsTheStore() async throws {
        let harness = try Harness({ _ in [] }, status: .denied)
        let session = ServiceSession(authorization: .whenInUse, manager: harness.manager)
        let diagnostics = session.diagnostics
        try harness.store.write(.authorizedAlways)
        let seen = await Self.first(2, of: diagnostics)
        #expect(seen.first?.authorizationDenied == true)
        #expect(seen.last?.isBlocking == false)
    }

    @Test("a policy that forbids location use is diagnosed as restricted; invalidate ends the diagnostics")
    func restrictedAndInvalidated() async throws {
        let harness = try Harness({ _ in [] }, status: .authorizedAlways, policy: "deny\n")
        let session = ServiceSession(authorization: .none, manager: harness.manager)
        // A session that requires nothing is never blocked.
        #expect(await Self.first(1, of: session.diagnostics).first?.isBlocking == false)
        let strict = ServiceSession(authorization: .whenInUse, manager: harness.manager)
        let diagnostics = strict.diagnostics
        strict.invalidate()
        var seen: [ServiceSession.Diagnostic] = []
        for await diagnostic in diagnostics { seen.append(diagnostic) }
        #expect(seen.map(\.authorizationRestricted) == [true])
        #expect(!strict.isValid)
    }
}
