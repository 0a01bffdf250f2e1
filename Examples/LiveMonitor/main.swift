// geotrack-example: LocationKit's iOS 17–18 shapes on a replayed NMEA log or GPX track.
//
//   swift run geotrack-example LOG [RADIUS]
//
// It holds a ServiceSession, reads LocationUpdate.liveUpdates, and keeps a Monitor named
// "example" with one condition: a circle of RADIUS metres (default 40) around the first
// location. The monitor is kept under $XDG_STATE_HOME/geotrack/monitors, so a second run
// starts from what the first one saw: it prints each event's date exactly, as seconds since
// 2001-01-01 UTC, and a second run prints the same seconds for the event it remembers.
//
// The loop awaits work for each update (the monitor's evaluation); a replay waits for it, so
// every location of a log of any length arrives.
import GeoTrackKit

#if canImport(Glibc)
import Glibc
#endif

/// Says why on stderr and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    let line = "geotrack-example: \(message)\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first, arguments.count <= 2,
      let radius = arguments.count == 2 ? Double(arguments[arguments.startIndex + 1]) : 40, radius > 0 else {
    fail("usage: geotrack-example LOG [RADIUS]: replays LOG (NMEA or GPX) and watches RADIUS metres around its start", status: 64)
}

/// Remembers why the source failed, if it did: live updates only say that no location can be
/// had (`locationUnavailable`), which is also how a replay that reached its end looks.
@MainActor
final class SourceFailure: LocationManagerDelegate {
    /// The first failure the source reported.
    var error: SourceError?

    func locationManager(_ manager: LocationManager, didChangeReceiverStatus status: ReceiverStatus) {
        if error == nil, case .disconnected(let failure)? = status.sourceState { error = failure }
    }
}

/// Replays `path` through the manager, the session, live updates and the monitor; returns the
/// task printing the monitor's events, which ends once the monitor is let go, and the summary
/// line, which is printed after that task's last line.
@MainActor
func replay(_ path: String, radius: Double) async -> (printer: Task<Void, Never>, summary: String) {
    // A replay is the user's own data: access is granted in memory, as `geotrack replay` does.
    let manager = LocationManager(source: Replay(path: path), authorizationStore: .inMemory(.authorizedWhenInUse))
    let failure = SourceFailure()
    manager.delegate = failure
    let session = ServiceSession(authorization: .whenInUse, manager: manager)
    for await diagnostic in session.diagnostics {
        print("session: \(diagnostic)")
        break
    }

    let opened: Monitor
    do {
        opened = try Monitor(named: "example")
    } catch {
        fail("\(error)", status: 73)
    }
    for identifier in await opened.identifiers {
        if let record = await opened.record(for: identifier) {
            print("monitor: remembers \(identifier) \(record.lastEvent.state)")
            print("monitor: remembers \(identifier) dated \(record.lastEvent.date.timeIntervalSinceReferenceDate)")
        }
    }
    let events = opened.events
    let printer = Task {
        for await event in events {
            print("monitor: \(event.identifier) \(event.state)")
            // The exact value: a relaunch reads back this very date.
            print("monitor: \(event.identifier) dated \(event.date.timeIntervalSinceReferenceDate)")
        }
    }

    var locations = 0
    var simulated = 0
    var stationary = 0
    for await update in LocationUpdate.liveUpdates(.default, from: manager) {
        if update.isStationary { stationary += 1 }
        guard let location = update.location else { continue }
        locations += 1
        if location.sourceInformation.isSimulatedBySoftware { simulated += 1 }
        if locations == 1, await opened.record(for: "start") == nil {
            do {
                try await opened.add(CircularGeographicCondition(center: location.coordinate, radius: radius),
                                     identifier: "start", assuming: .satisfied)
                print("monitor: watching \(Int(radius)) m around \(location.coordinate)")
            } catch {
                fail("\(error)", status: 73)
            }
        }
        await opened.evaluate(location)
    }
    // A file that cannot be read is an error, not a run that saw no locations: one line, and
    // the exit status geotrack uses (66 no such file, 65 not NMEA or GPX, 74 a read failed).
    if let error = failure.error {
        let status: Int32 = switch error.code {
        case .unreadableFile: 66
        case .protocolError: 65
        default: 74
        }
        fail(error.message, status: status)
    }
    session.invalidate()
    return (printer, "live updates: \(locations) locations, \(simulated) simulated, \(stationary) stationary")
}

// The monitor lives inside `replay`: letting it go finishes its events, so the printer ends
// after the last one. The summary waits for it: the printer runs beside the loop, and its
// lines for the last evaluations may still be on their way when the loop ends.
let (printer, summary) = await replay(path, radius: radius)
await printer.value
print(summary)
