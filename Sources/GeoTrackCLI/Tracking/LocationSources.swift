import GPSD
import GPSReports
import LocationKit
import Logging
import NMEA
#if canImport(Glibc)
import Glibc
#endif

/// Where location events come from, and the location manager over them: the adapters to the
/// GPSD and NMEA layers, configured from the settings the same way for `watch` and `replay`.
package enum LocationSources {
    /// What the run reads, as the outputs name it: the replayed file ("standard input" for
    /// `-`), or gpsd's address.
    package static func sourceName(replay: String?, settings: Settings) -> String {
        replay.map { $0 == "-" ? "standard input" : $0 } ?? "gpsd at \(HostAndPort.text(settings.gpsdHost, settings.gpsdPort))"
    }

    /// The gpsd client for the settings' host, port and device.
    package static func gpsdClient(settings: Settings, logger: Logger) -> GPSDClient {
        GPSDClient(configuration: gpsdConfiguration(settings: settings), logger: logger)
    }

    /// Where gpsd is, from the settings.
    package static func gpsdConfiguration(settings: Settings) -> GPSDConfiguration {
        GPSDConfiguration(host: settings.gpsdHost, port: settings.gpsdPort, device: settings.device)
    }

    /// A manager on gpsd. Without `retries`, the first failure ends the source (`--no-retry`);
    /// without `allSkyViews`, SKY reports whose summary repeats are dropped on the reader thread
    /// (the status line uses only the counts and dilutions; `--sky` prints every one).
    @MainActor
    package static func gpsdManager(settings: Settings, store: AuthorizationStore, retries: Bool, allSkyViews: Bool,
                                    logger: Logger) -> LocationManager {
        var configuration = gpsdConfiguration(settings: settings)
        configuration.reconnects = retries
        configuration.skyViews = allSkyViews ? .every : .whenSummaryChanges
        let manager = LocationManager(source: GPSDClient(configuration: configuration, logger: logger),
                                      authorizationStore: store, logger: logger)
        configure(manager, settings: settings)
        return manager
    }

    /// Fails as the replay would if `path` cannot be opened: called before a command prints or
    /// serves anything, so that a missing file is its only output.
    package static func checkReplayable(_ path: String) throws(CLIError) {
        // An unset shell variable ("$LOG"): not a file that went missing, a command to fix.
        guard !path.isEmpty else {
            throw CLIError(.usage, "the file to replay is an empty name; give an NMEA log or a GPX track, or - for standard input")
        }
        do throws(SourceError) {
            try ByteInput.check(path: path)
        } catch {
            throw CLIError(error)
        }
    }

    /// Fails as the replay would at its end (exit 65) when the regular file `path` holds
    /// nothing gpsd would read, for a command that announces something first (`serve`). Reads
    /// only up to the first sentence or track point, at once for a log; to the end for anything
    /// else. Standard input and pipes are left alone: what this read, the replay would miss.
    package static func checkHoldsLog(_ path: String) throws(CLIError) {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        do throws(SourceError) {
            let reader = try ReplayReader(path: path)
            while reader.statistics.decoded == 0, reader.statistics.trackPoints == 0, try reader.next() != nil {}
            if reader.statistics.decodedNothing { throw SourceError.notALog(path, reader.statistics) }
        } catch {
            throw CLIError(error)
        }
    }

    /// A replay of `path` ("-" for stdin), as fast as possible or at `speed` times the recorded
    /// pace: kept by the command for what it skipped (``sayWhatWasSkipped(_:)``).
    package static func replay(path: String, speed: Double?) -> NMEA.Replay {
        NMEA.Replay(path: path, pacing: speed.map { .realTime(speed: $0) } ?? .asFastAsPossible)
    }

    /// A manager on `replay`. The data is the user's own, so access is granted in memory.
    @MainActor
    package static func replayManager(_ replay: NMEA.Replay, settings: Settings, logger: Logger) -> LocationManager {
        let manager = LocationManager(source: replay, authorizationStore: .inMemory(.authorizedAlways), logger: logger)
        configure(manager, settings: settings)
        return manager
    }

    /// Says on standard error what a replay that has ended read but passed over: GPX track points
    /// with an impossible or unreadable value are fixes the user gave, and none goes missing
    /// unsaid. (Sentences gpsd itself drops, bad checksums and the like, are not fixes gpsd
    /// would have printed, and are not counted here.)
    package static func sayWhatWasSkipped(_ replay: NMEA.Replay) {
        if let note = skippedNote(replay.statistics, path: replay.path) { Terminal.standardError(note) }
    }

    /// The note for ``sayWhatWasSkipped(_:)``, or nil when nothing was skipped.
    package static func skippedNote(_ statistics: ReplayStatistics, path: String) -> String? {
        let count = statistics.skippedTrackPoints
        let name = path == "-" ? "standard input" : Terminal.safe(path)
        var lines: [String] = []
        if count > 0 {
            lines.append("geotrack: skipped \(count) track point\(count == 1 ? "" : "s") of \(name) with an impossible or unreadable "
                         + "value (a latitude beyond ±90°, a longitude beyond ±180°, a time or number that is none)")
        }
        if statistics.repeatedTimes > 0 {
            let repeated = statistics.repeatedTimes
            lines.append("geotrack: \(repeated) track point\(repeated == 1 ? "" : "s") of \(name) \(repeated == 1 ? "has" : "have") the time of "
                         + "the point before; a GPX track (--gpx) and stats keep one point per time, the last")
        }
        if statistics.cutTrackPoint {
            lines.append("geotrack: \(name) ends inside a track point (a copy or a recording cut short?); that point was left out")
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// The settings every manager gets, whatever its source: filters, regions, visits.
    @MainActor
    static func configure(_ manager: LocationManager, settings: Settings) {
        manager.distanceFilter = settings.distanceFilter > 0 ? settings.distanceFilter : LocationManager.distanceFilterNone
        manager.accuracyFilter = settings.accuracyFilter > 0 ? settings.accuracyFilter : LocationManager.accuracyFilterNone
        for region in settings.regions {
            if let center = Coordinate(latitude: region.latitude, longitude: region.longitude) {
                manager.startMonitoring(for: CircularRegion(center: center, radius: region.radius, identifier: region.name))
            }
        }
        if settings.visits.enabled {
            manager.visitRadius = settings.visits.radius
            manager.visitDwellTime = .milliseconds(Int((settings.visits.dwell * 1000).rounded()))
            manager.startMonitoringVisits()
        }
    }

    /// The receivers attached to gpsd.
    package static func devices(settings: Settings, timeout: Duration, logger: Logger) async throws(CLIError) -> [Device] {
        do {
            return try await gpsdClient(settings: settings, logger: logger).devices(timeout: timeout)
        } catch {
            throw CLIError(error)
        }
    }
}
