import Foundation
import GeoTrackKit
import GeoTrackTesting
import Synchronization
import Testing

/// `liveUpdates` and its manager's lifetime: the sequence does not keep the manager, so a
/// program that lets the manager go gets rid of it and of its source, whatever it keeps of the
/// sequence.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct LiveUpdatesLifetimeTests {
    /// How many sessions of a source are running: started and not yet cancelled.
    final class RunningSessions: Sendable {
        private let value = Atomic(0)
        var count: Int { value.load(ordering: .acquiring) }
        func add(_ delta: Int) { value.add(delta, ordering: .acquiringAndReleasing) }
    }

    /// A scripted source that counts its running sessions: the manager's connection to it.
    struct CountedSource: LocationSource {
        let script: ScriptedLocationSource
        let running: RunningSessions

        var sourceInformation: SourceInformation { script.sourceInformation }

        func events() -> ScriptedLocationSource.Events { script.events() }

        @MainActor
        func startSession(deliveringTo handler: @escaping @MainActor (SourceEvent?) -> Void) -> SourceSession {
            let inner = script.startSession(deliveringTo: handler)
            running.add(1)
            return SourceSession { [running] in
                inner.cancel()
                running.add(-1)
            }
        }
    }

    /// A manager over a receiver that reports two fixes and then nothing, never ending (its
    /// wait is on a clock nobody advances), counting its source sessions in `running`.
    static func manager(running: RunningSessions) -> LocationManager {
        let clock = ManualClock()
        let steps: [ScriptedLocationSource.Step] = [
            .state(.receiverPresent),
            .fix(.synthetic(at: .at(north: 0), second: 0)),
            .fix(.synthetic(at: .at(north: 10), second: 1)),
            .wait(.seconds(3_600)),
        ]
        let source = CountedSource(script: ScriptedLocationSource(steps, clock: clock), running: running)
        return LocationManager(source: source, clock: clock, authorizationStore: .inMemory(.authorizedWhenInUse))
    }

    @Test("a kept sequence and a kept iterator do not keep the manager: it goes, its source stops, and they end")
    func keptSequenceAndIterator() async throws {
        let running = RunningSessions()
        weak var released: LocationManager?
        let kept: LocationUpdate.LiveUpdates
        var iterator: LocationUpdate.LiveUpdates.AsyncIterator
        do {
            let manager = Self.manager(running: running)
            released = manager
            kept = LocationUpdate.liveUpdates(from: manager)
            iterator = kept.makeAsyncIterator()
            #expect(await iterator.next()?.location != nil)
            #expect(running.count == 1)
        }
        // Checked before anything waits on the iterator: a manager kept alive would keep it open.
        try #require(released == nil, "the sequence kept the manager")
        #expect(running.count == 0, "the manager's source session outlived it")
        // The update that may have been waiting already, then the end.
        var waiting = 0
        while await iterator.next() != nil { waiting += 1 }
        #expect(waiting <= 1)
        var later = kept.makeAsyncIterator()
        #expect(await later.next() == nil)
    }

    @Test("a loop in a task nobody cancels does not keep the manager: letting the manager go ends the loop")
    func uncancelledLoop() async throws {
        let running = RunningSessions()
        weak var released: LocationManager?
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let loop: Task<Int, Never>
        do {
            let manager = Self.manager(running: running)
            released = manager
            // The task holds the sequence, not the manager, as a loop started from a view model would.
            let updates = LocationUpdate.liveUpdates(from: manager)
            loop = Task { @MainActor in
                var locations = 0
                for await update in updates where update.location != nil {
                    locations += 1
                    signal.yield()
                }
                return locations
            }
            for await _ in started { break }
        }
        try #require(released == nil, "the running loop kept the manager")
        #expect(running.count == 0)
        let locations = await loop.value
        #expect(locations >= 1 && locations <= 2)
    }

    /// Established TCP connections from this machine to the loopback `port`: the clients gpsd
    /// has there (its own end of each is not counted: its remote port is the client's).
    nonisolated static func connections(toPort port: Int) -> Int {
        let hexPort = String(format: "%04X", port)
        var count = 0
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read to the end: a /proc table says it is empty (its size is 0), and comes a page at a time.
            guard let handle = FileHandle(forReadingAtPath: table), let data = try? handle.readToEnd() else { continue }
            try? handle.close()
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl, local address, remote address, state (01 is ESTABLISHED).
                guard fields.count > 3 else { continue }
                if fields[2].hasSuffix(":" + hexPort) && fields[3] == "01" { count += 1 }
            }
        }
        return count
    }

    @Test("over gpsd: a kept iterator does not keep the manager, and the manager's connection to gpsd closes")
    func gpsdConnectionCloses() async throws {
        let log = Bundle.module.path(forResource: "garmin15x", ofType: "nmea", inDirectory: "Logs") ?? "Logs/garmin15x.nmea"
        // Looping, so the receiver is still reporting whenever the manager goes.
        let server = try await GPSFake(log: log, once: false)
        weak var released: LocationManager?
        var iterator: LocationUpdate.LiveUpdates.AsyncIterator
        do {
            let manager = LocationManager(gpsd: GPSDConfiguration(host: "127.0.0.1", port: server.port),
                                          authorizationStore: .inMemory(.authorizedWhenInUse))
            released = manager
            iterator = LocationUpdate.liveUpdates(from: manager).makeAsyncIterator()
            var location: Location?
            while location == nil, let update = await iterator.next() { location = update.location }
            #expect(location != nil)
            #expect(Self.connections(toPort: server.port) == 1)
        }
        try #require(released == nil, "the iterator kept the manager")
        // The client's reader closes its socket on a thread of its own: wait for gpsd's side to see it.
        let port = server.port
        let closed = await waitUntil(timeout: .seconds(60)) { @Sendable in Self.connections(toPort: port) == 0 }
        #expect(closed, "the manager's connection to gpsd is still open")
        var waiting = 0
        while await iterator.next() != nil { waiting += 1 }
        #expect(waiting <= LocationUpdate.bufferLimit)
        try await server.stop()
    }
}
