import ArgumentParser
import FoundationEssentials
import Logging
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension GeoTrack {
    /// `geotrack stats FILE…`: a track's statistics, from NMEA logs and GPX tracks.
    package struct Stats: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Summarise NMEA logs or GPX tracks: distance, time, speeds, climb, area, trips and stops.",
            discussion: """
            Each file is replayed through the same pipeline as 'replay' and summed up: the \
            duration over the intervals whose time goes forward; moving time, the intervals of at \
            most 5 min in which the receiver reported 1.8 km/h or more (without its speed, a step \
            at that pace longer than the positions' error); the distance along the WGS 84 \
            ellipsoid over the moving intervals, so a receiver at rest covers no ground; the \
            highest speed the receiver reported, which the average never exceeds; \
            ascent and descent, changes of 5 m or more; and, as Traccar counts them, stops (5 min \
            or more within 50 m of one place) and the trips between them. \
            'watch --stats' and 'replay --stats' print the same summary on stderr at the end.
            """
        )

        @Argument(help: ArgumentHelp("NMEA logs or GPX tracks.", valueName: "file"), completion: .file())
        package var files: [String]

        @Flag(help: "Print one JSON object per file (SI units), for scripts.")
        package var json = false

        @OptionGroup package var display: DisplayOptions

        @Option(name: .customLong("svg"), help: ArgumentHelp("Also draw the track into an SVG file (one input file only).",
                                                             valueName: "file"))
        package var svgPath: String?

        @Flag(help: "Replace an existing --svg file (never through a symbolic link).")
        package var overwrite = false

        @OptionGroup package var configFile: ConfigFileOptions

        package init() {}

        package func validate() throws {
            if files.isEmpty { throw ValidationError("Give at least one NMEA log or GPX track.") }
            if let problem = OutputFile.nameProblem("--svg", svgPath) { throw ValidationError(problem) }
            if svgPath != nil, files.count > 1 { throw ValidationError("--svg draws one track: give one file with it.") }
            if overwrite, svgPath == nil { throw ValidationError("--overwrite replaces an existing --svg file; give --svg too.") }
        }

        package func run() async throws {
            let settings = try await Settings.load(overrides: display.settingsOverrides, explicitFile: configFile.config)
            let logger = Logger.geotrack()
            // A usage mistake (an empty name) is the only output, before any file is read.
            for file in files where file.isEmpty { try LocationSources.checkReplayable(file) }
            guard files.count > 1 else {
                if let file = files.first { _ = try await summarise(file, settings: settings, logger: logger) }
                return
            }
            // A batch (`find … -exec geotrack stats --json {} +`) goes on past a file it cannot
            // sum up, as wc and gzip do: that file's error on stderr, the others' summaries on
            // stdout, and at the end the first failure's status, with a line saying how many.
            var failures: [(file: String, error: CLIError)] = []
            for file in files {
                do throws(CLIError) {
                    guard try await summarise(file, settings: settings, logger: logger) else { break }
                } catch {
                    Terminal.standardError("geotrack: \(Terminal.safe(error.message))")
                    failures.append((file, error))
                }
            }
            if let first = failures.first {
                let count = failures.count
                var named = failures.prefix(3).map(\.file).joined(separator: ", ")
                if count > 3 { named += " and \(count - 3) more" }
                throw CLIError(first.error.status, "\(count) of \(files.count) files \(count == 1 ? "was" : "were") not summed up "
                               + "(\(named)); \(count == 1 ? "its error is" : "their errors are") above")
            }
        }

        /// Replays `file` and prints its summary; false when a signal stopped the run (nothing is
        /// printed for a file read only in part, and no other file is started).
        private func summarise(_ file: String, settings: Settings, logger: Logger) async throws(CLIError) -> Bool {
            try LocationSources.checkReplayable(file)
            let statistics = StatisticsOutput(descriptor: STDOUT_FILENO, json: json, units: settings.units,
                                              format: settings.format, file: json || files.count > 1 ? file : nil,
                                              writesWhenFinished: false)
            let render = RenderOptions(format: settings.format, units: settings.units, color: false, sourceName: file)
            let picture = try svgPath.map { svgPath throws(CLIError) in
                try PictureOutput(path: svgPath, replacing: overwrite, input: file, units: settings.units,
                                  title: FilePath(file).lastComponent?.string ?? file, regions: settings.regions)
            }
            let outputs: [any RunOutput] = [statistics] + (picture.map { [$0] } ?? [])
            let output = TrackerOutput(display: StatusDisplay(mode: .silent, options: render), outputs: outputs,
                                       stopAfter: nil)
            let replay = LocationSources.replay(path: file, speed: nil)
            let run = await MainActor.run {
                TrackingRun(manager: LocationSources.replayManager(replay, settings: settings, logger: logger), output: output)
            }
            let verdict = try await TrackerSession.run(run, output: output, timeout: nil, logger: logger)
            LocationSources.sayWhatWasSkipped(replay)
            guard verdict != nil else {
                // Ctrl-C is no failure, but a run that printed nothing must say why.
                Terminal.standardError("geotrack: stopped before the end of \(Terminal.safe(file)); it was not summed up")
                return false
            }
            // Only a file read to its end is summed up: one that is no log gets its error alone,
            // and so does one whose fixes have no time (a route, a log of GGA alone), which
            // would otherwise read as a track of no points.
            if statistics.statistics.points == 0 { throw CLIError.noTimedFix(file) }
            statistics.write()
            return true
        }
    }
}
