import ArgumentParser

/// Output flags shared by `watch` and `replay`: what is printed and recorded, then publishing,
/// then the configuration file.
///
/// ArgumentParser's help shows the titled groups first, in the order declared, and the untitled
/// options last: so what is printed comes under "Output", the publishing options under
/// "Publishing" after it, and `--config` with `--help` at the end. The man page lists them in
/// the same order.
package struct OutputOptions: ParsableArguments {
    @OptionGroup(title: "Output") package var basic: BasicOutputOptions

    @OptionGroup(title: "Publishing") package var publish: PublishOptions

    @OptionGroup package var configFile: ConfigFileOptions

    package init() {}

    /// `--json`.
    package var json: Bool { basic.json }
    /// `--sky`.
    package var sky: Bool { basic.sky }
    /// `--visits`.
    package var visits: Bool { basic.visits }
    /// `--stats`.
    package var stats: Bool { basic.stats }
    /// `--gpx FILE`.
    package var gpxPath: String? { basic.gpxPath }
    /// `--svg FILE`.
    package var svgPath: String? { basic.svgPath }
    /// `--overwrite`.
    package var overwrite: Bool { basic.overwrite }
    /// `--count N`.
    package var count: Int? { basic.count }
    /// `--once`.
    package var once: Bool { basic.once }
    /// `--timeout SECONDS`.
    package var timeout: Double? { basic.timeout }
    /// `--format` and `--units`.
    package var display: DisplayOptions { basic.display }
    /// `--gpx-min-move METRES`.
    package var gpxMinimumMove: Double? { basic.gpxMinimumMove }
    /// `--gpx-min-interval SECONDS`.
    package var gpxMinimumInterval: Double? { basic.gpxMinimumInterval }
    /// `--gpx-segment-after SECONDS`.
    package var gpxSegmentAfter: Double? { basic.gpxSegmentAfter }

    /// The option groups of this struct that make an output of their own (``OutputMaking``),
    /// in the order declared: a new output's group is found here without being listed.
    package var outputGroups: [any OutputMaking] {
        Mirror(reflecting: self).children.compactMap { ($0.value as? any OutputGroupWrapper)?.outputMaker }
    }

    /// The longest `--timeout` taken: a year. Beyond it a duration overflows, and no run needs it.
    package static let maximumTimeout: Double = 366 * 86_400

    /// Checks a `--timeout` value: more than 0 seconds, at most ``maximumTimeout``.
    package static func checkTimeout(_ timeout: Double) throws {
        guard timeout > 0, timeout <= maximumTimeout else {
            throw ValidationError("--timeout must be more than 0 and at most \(Int(maximumTimeout)) seconds (got \(timeout)).")
        }
    }

    /// How many fixes to stop after, if any.
    package var stopAfter: Int? { once ? 1 : count }

    /// What these flags set, for the top layer of the configuration.
    package var settingsOverrides: SettingsOverrides {
        var overrides = display.settingsOverrides
        if visits { overrides.visits = true }
        overrides.gpxMinimumMove = gpxMinimumMove
        overrides.gpxMinimumInterval = gpxMinimumInterval
        overrides.gpxSegmentAfter = gpxSegmentAfter
        return overrides
    }
}

/// What `watch` and `replay` print and record, and when they stop: ``OutputOptions``'s "Output" group.
package struct BasicOutputOptions: ParsableArguments {
    @Flag(help: ArgumentHelp("Print gpsd's TPV JSON, one object per line, for every fix the receiver sends (as gpspipe -w does), with events as \"class\":\"EVENT\" objects, instead of the status line."))
    package var json = false

    @Flag(help: "With --json: also print gpsd's SKY objects (satellites and dilutions).")
    package var sky = false

    @Flag(help: "Report visits: arrivals after a stay (location.visit_radius, location.visit_dwell) and departures.")
    package var visits = false

    @Flag(help: "At the end, print the track's statistics on stderr (with --json: one JSON object); see 'geotrack stats --help'.")
    package var stats = false

    @Option(name: .customLong("gpx"), help: ArgumentHelp("Record the track into a GPX 1.1 file.", valueName: "file"))
    package var gpxPath: String?

    @Option(name: .customLong("svg"), help: ArgumentHelp(
        "At the end, draw the track into an SVG file: coloured by speed, with stops, regions, a scale and the statistics.",
        valueName: "file"))
    package var svgPath: String?

    @Flag(help: "Replace an existing --gpx or --svg file (never through a symbolic link, never the file being replayed).")
    package var overwrite = false

    @Option(help: ArgumentHelp("Stop after this many fixes.", valueName: "n"))
    package var count: Int?

    @Flag(help: "Stop after the first fix (same as --count 1).")
    package var once = false

    @Option(help: ArgumentHelp("With --once or --count: give up after this many seconds without a fix (exit 75).",
                               valueName: "seconds"))
    package var timeout: Double?

    @OptionGroup package var display: DisplayOptions

    @Option(name: .customLong("gpx-min-move"), help: ArgumentHelp(
        "GPX: skip points closer than this to the last one (like gpxlogger -m).", valueName: "metres"))
    package var gpxMinimumMove: Double?

    @Option(name: .customLong("gpx-min-interval"), help: ArgumentHelp(
        "GPX: skip points sooner than this after the last one.", valueName: "seconds"))
    package var gpxMinimumInterval: Double?

    @Option(name: .customLong("gpx-segment-after"), help: ArgumentHelp(
        "GPX: start a new segment when the fix was lost this long (like gpxlogger -i).", valueName: "seconds"))
    package var gpxSegmentAfter: Double?

    package init() {}

    package func validate() throws {
        if sky, !json {
            throw ValidationError("--sky adds SKY objects to --json; give --json too.")
        }
        if let count, count < 1 {
            throw ValidationError("--count must be at least 1 (got \(count)).")
        }
        if once, count != nil {
            throw ValidationError("--once and --count cannot be used together; --once is --count 1.")
        }
        if let timeout {
            try OutputOptions.checkTimeout(timeout)
            guard once || count != nil else { throw ValidationError("--timeout needs --once or --count.") }
        }
        for (name, value) in [("--gpx-min-move", gpxMinimumMove), ("--gpx-min-interval", gpxMinimumInterval)] {
            if let value, !(value >= 0 && value.isFinite) {
                throw ValidationError("\(name) must be 0 or more (got \(value)).")
            }
        }
        if overwrite, gpxPath == nil, svgPath == nil {
            throw ValidationError("--overwrite replaces an existing --gpx or --svg file; give one of them too.")
        }
        if let gpxSegmentAfter, !(gpxSegmentAfter > 0 && gpxSegmentAfter.isFinite) {
            throw ValidationError("--gpx-segment-after must be more than 0 seconds (got \(gpxSegmentAfter)).")
        }
    }
}
