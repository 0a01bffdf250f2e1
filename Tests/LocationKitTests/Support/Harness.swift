import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Logging

/// A manager over a scripted source with a store in a fresh directory.
@MainActor
struct Harness {
    let directory: TemporaryDirectory
    let store: AuthorizationStore
    let clock = ManualClock()
    let manager: LocationManager
    let delegate = RecordingLocationDelegate()

    nonisolated static let origin = Coordinate(latitude: 48.8566, longitude: 2.3522) ?? Coordinate(latitude: 0, longitude: 0)!

    init(_ steps: (ManualClock) -> [ScriptedLocationSource.Step], status: AuthorizationStatus? = .authorizedWhenInUse,
         accuracy: AccuracyAuthorization = .fullAccuracy,
         prompter: (any AuthorizationPrompter)? = nil, policy: String? = nil) throws {
        directory = try TemporaryDirectory()
        let policyPath = directory.path + "/policy"
        if let policy { try policy.write(toFile: policyPath, atomically: true, encoding: .utf8) }
        store = AuthorizationStore(directory: directory.path + "/state", policyPath: policyPath)
        if let status { try store.write(status, accuracy: accuracy) }
        manager = LocationManager(source: ScriptedLocationSource(steps(clock), clock: clock), clock: clock,
                                  authorizationStore: store, prompter: prompter, logger: Logger(label: "test"))
        manager.delegate = delegate
    }

    /// A track of fixes with no waits in between.
    init(fixes: [Fix], status: AuthorizationStatus? = .authorizedWhenInUse,
         accuracy: AccuracyAuthorization = .fullAccuracy) throws {
        try self.init({ _ in [.state(.receiverPresent)] + fixes.map { .fix($0) } }, status: status, accuracy: accuracy)
    }
}

extension Coordinate {
    static func at(north: Double, east: Double = 0) -> Coordinate {
        Harness.origin.offset(north: north, east: east)
    }
}
